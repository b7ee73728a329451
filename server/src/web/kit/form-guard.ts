import { createHmac, randomBytes } from 'node:crypto';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { DEFAULT_BOARD_MIN_FILL_SECONDS } from '../../serve-defaults.js';
import type { FormRefusalReason } from '../../metrics/form-metrics.js';
import { formField } from './forms.js';
import { SPEND_FORM_STAMP } from '../../domain/people/visitor-tokens.sql.js';
import { html, type SafeHtml } from './html.js';
import { sameSignature } from './signatures.js';
import type { I18n } from './i18n.js';

/*
 * Spam defences of the board's and the widget's forms without a captcha (docs/board.md, "Spam";
 * docs/widget.md): a honeypot field that people never see and simple bots fill, and a stamp of the
 * moment the form was shown, signed, so a post sent sooner than a person can type (or with no
 * stamp, or a forged one) is refused. The stamp is signed with a key derived from the server's
 * voter secret: no new secret to keep, and the same in every process of a cluster.
 *
 * A stamp is bound to the form it was shown in (the project, which form, the item or comment it
 * answers) and to the identified visitor it was shown to, so a stamp read from one page passes for
 * no other form or person; and it is spent by the post it lets through: its random id is recorded
 * in the table where the board's visitor tokens are spent (board_spent_tokens, swept when it
 * expires), so a second post with it is refused in any process of any machine on the database.
 */

/** The honeypot's name: a field a form-filling bot is glad to fill. */
export const TRAP_FIELD = 'website';
/** The hidden field that carries the signed moment the form was shown. */
export const STAMP_FIELD = 'shown';
/** The default shortest time to fill a form (`feedback serve --board-min-fill`): a person reads and types for longer than this. */
export const DEFAULT_MIN_FILL_MS = DEFAULT_BOARD_MIN_FILL_SECONDS * 1000;
/** A stamp older than this is refused as stale (a form kept open for a day is shown again, filled). */
const STAMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * What a stamp is bound to: the project's slug, the form (`submit`, `widget`, `comment:<item>`,
 * `comment:<item>:<parent comment>`) and the identified visitor's end user, if any.
 */
export function stampScope(slug: string, form: string, visitor: { endUserId: string } | undefined): string {
  return JSON.stringify([slug, form, visitor?.endUserId ?? null]);
}

export interface FormGuard {
  /**
   * The hidden fields of a form shown now: the honeypot (its id made of `formId`, one per form of
   * the page) and a stamp signed for `scope` (stampScope).
   */
  fields(i18n: I18n, formId: string, scope: string): SafeHtml;
  /** A new stamp for `scope`: a script's form gets one for its next post with each answer. */
  stamp(scope: string): string;
  /** Why a posted form is refused (the reason counted in the metrics), or undefined when it passes; spends nothing. */
  check(ctx: AppContext, scope: string): FormRefusalReason | undefined;
  /**
   * Spends the stamp of a form that passed `check`, just before its post is written: 'spent_stamp'
   * when it was spent before (the same form sent twice, or a stamp copied), else undefined.
   */
  spend(ctx: AppContext): Promise<FormRefusalReason | undefined>;
  /** `check`, then `spend` when it passes: for a form whose post nothing else refuses before it is written. */
  admit(ctx: AppContext, scope: string): Promise<FormRefusalReason | undefined>;
}

/** What a refused form says, by the guard's reason (kit/form-guard.ts; a spent budget is the caller's). */
export const GUARD_REASONS = { honeypot: 'form.problem.honeypot', too_fast: 'form.problem.tooFast', bad_stamp: 'form.problem.stale', spent_stamp: 'form.problem.spent', rate_limit: 'form.problem.stale' } as const;

/** What spends a stamp: records its id until it expires; false when it was recorded already. */
type Spender = (id: string, expiresAtMs: number) => Promise<boolean>;

/**
 * The guard of the board's and the widget's forms: `secret` the server's voter secret, `sql` where
 * stamps are spent, `minFillMs` the shortest time to fill one.
 */
export function formGuard(secret: Buffer, sql: Pick<SqlPool, 'query'>, minFillMs: number = DEFAULT_MIN_FILL_MS): FormGuard {
  return guardWith(secret, minFillMs, async (id, expiresAtMs) => (await sql.query<{ fresh: number }>(SPEND_FORM_STAMP.name, SPEND_FORM_STAMP.text, [`form:${id}`, expiresAtMs / 1000])).length > 0);
}

function guardWith(secret: Buffer, minFillMs: number, spender: Spender): FormGuard {
  const key = createHmac('sha256', secret).update('feedback form stamp v2').digest();
  const sign = (issued: string, id: string, scope: string) => createHmac('sha256', key).update(`${issued}.${id}.${scope}`).digest();
  const stamp = (scope: string) => {
    const issued = String(Date.now());
    const id = randomBytes(16).toString('base64url');
    return `${issued}.${id}.${sign(issued, id, scope).toString('base64url')}`;
  };
  /** A posted stamp's parts, when it is well formed. */
  const parts = (ctx: AppContext) => {
    const given = formField(ctx, STAMP_FIELD);
    if (typeof given !== 'string') return undefined;
    const [issued, id, signature, extra] = given.split('.');
    if (!issued || !id || !signature || extra !== undefined || !/^\d{1,15}$/.test(issued) || !/^[\w-]{22}$/.test(id)) return undefined;
    return { issued, id, signature };
  };
  const guard: FormGuard = {
    fields(i18n, formId, scope) {
      // Off-screen rather than display:none (which some bots skip); out of the tab order and of
      // the accessibility tree, and never filled in by the browser.
      return html`<div class="form-trap" aria-hidden="true"><label for="${TRAP_FIELD}-${formId}">${i18n.t('form.trap')}</label><input type="text" id="${TRAP_FIELD}-${formId}" name="${TRAP_FIELD}" value="" tabindex="-1" autocomplete="off"></div>
<input type="hidden" name="${STAMP_FIELD}" value="${stamp(scope)}">`;
    },
    stamp,
    check(ctx, scope) {
      const trap = formField(ctx, TRAP_FIELD);
      if (trap !== undefined && trap !== '') return 'honeypot';
      const given = parts(ctx);
      if (!given) return 'bad_stamp';
      // Signed for this form and this visitor, or it is another form's stamp (or forged).
      if (!sameSignature(given.signature, sign(given.issued, given.id, scope))) return 'bad_stamp';
      const age = Date.now() - Number(given.issued);
      if (age > STAMP_MAX_AGE_MS) return 'bad_stamp';
      if (age < minFillMs) return 'too_fast';
      return undefined;
    },
    async spend(ctx) {
      const given = parts(ctx);
      if (!given) return 'bad_stamp';
      return (await spender(given.id, Number(given.issued) + STAMP_MAX_AGE_MS)) ? undefined : 'spent_stamp';
    },
    async admit(ctx, scope) {
      return guard.check(ctx, scope) ?? (await guard.spend(ctx));
    },
  };
  return guard;
}

let viewGuard: FormGuard | undefined;

/**
 * A guard with a key of its own, for a view rendered without the server's (a view's tests, a page
 * made outside a request): its stamps pass no server's check, which is what they are for.
 */
export function unsignedGuard(): FormGuard {
  viewGuard ??= guardWith(randomBytes(32), DEFAULT_MIN_FILL_MS, () => Promise.resolve(false));
  return viewGuard;
}
