import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../http/context.js';
import { DEFAULT_BOARD_MIN_FILL_SECONDS } from '../../serve-defaults.js';
import type { FormRefusalReason } from '../../metrics/form-metrics.js';
import { formField } from './forms.js';
import { html, type SafeHtml } from './html.js';
import type { I18n } from './i18n.js';

/*
 * Spam defences of the board's forms without a captcha (docs/board.md, "Spam"): a honeypot field
 * that people never see and simple bots fill, and the moment the form was shown, signed, so a post
 * sent sooner than a person can type (or with no stamp, or a forged one) is refused. The stamp is
 * signed with a key derived from the server's voter secret: no new secret to keep, and the same in
 * every process of a cluster. Neither needs a cookie or a row.
 */

/** The honeypot's name: a field a form-filling bot is glad to fill. */
export const TRAP_FIELD = 'website';
/** The hidden field that carries the signed moment the form was shown. */
export const STAMP_FIELD = 'shown';
/** The default shortest time to fill a form (`feedback serve --board-min-fill`): a person reads and types for longer than this. */
export const DEFAULT_MIN_FILL_MS = DEFAULT_BOARD_MIN_FILL_SECONDS * 1000;
/** A stamp older than this is refused as stale (a form kept open for a day is shown again, filled). */
const STAMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface FormGuard {
  /** The hidden fields of a form shown now: the honeypot (its id made of `formId`, one per form of the page) and the signed stamp. */
  fields(i18n: I18n, formId: string): SafeHtml;
  /** Why a posted form is refused (the reason counted in the metrics), or undefined when it passes. */
  check(ctx: AppContext): FormRefusalReason | undefined;
}

/** The guard of the board's forms: `secret` the server's voter secret, `minFillMs` the shortest time to fill one. */
export function formGuard(secret: Buffer, minFillMs: number = DEFAULT_MIN_FILL_MS): FormGuard {
  const key = createHmac('sha256', secret).update('feedback form stamp v1').digest();
  const sign = (issued: string) => createHmac('sha256', key).update(issued).digest();
  return {
    fields(i18n, formId) {
      const issued = String(Date.now());
      const stamp = `${issued}.${sign(issued).toString('base64url')}`;
      // Off-screen rather than display:none (which some bots skip); out of the tab order and of
      // the accessibility tree, and never filled in by the browser.
      return html`<div class="form-trap" aria-hidden="true"><label for="${TRAP_FIELD}-${formId}">${i18n.t('form.trap')}</label><input type="text" id="${TRAP_FIELD}-${formId}" name="${TRAP_FIELD}" value="" tabindex="-1" autocomplete="off"></div>
<input type="hidden" name="${STAMP_FIELD}" value="${stamp}">`;
    },
    check(ctx) {
      const trap = formField(ctx, TRAP_FIELD);
      if (trap !== undefined && trap !== '') return 'honeypot';
      const stamp = formField(ctx, STAMP_FIELD);
      if (typeof stamp !== 'string') return 'bad_stamp';
      const [issued, signature] = stamp.split('.');
      if (!issued || !signature || !/^\d{1,15}$/.test(issued)) return 'bad_stamp';
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(issued);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_stamp';
      const age = Date.now() - Number(issued);
      if (age > STAMP_MAX_AGE_MS) return 'bad_stamp';
      if (age < minFillMs) return 'too_fast';
      return undefined;
    },
  };
}

let viewGuard: FormGuard | undefined;

/**
 * A guard with a key of its own, for a view rendered without the server's (a view's tests, a page
 * made outside a request): its stamps pass no server's check, which is what they are for.
 */
export function unsignedGuard(): FormGuard {
  viewGuard ??= formGuard(randomBytes(32));
  return viewGuard;
}
