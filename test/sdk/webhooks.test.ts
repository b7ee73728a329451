import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { FeedbackError } from '@feedbackd/sdk';
import {
  isKnownWebhookEvent,
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  type UnknownWebhookEvent,
  type VerifyWebhookInput,
  type WebhookEndUser,
  type WebhookEvent,
  type WebhookVerificationReason,
} from '@feedbackd/sdk/webhooks';
import { WEBHOOK_EVENT_SAMPLES } from '../fixtures/webhook-events.js';

// standardwebhooks is the specification's own library: signing with one side and verifying with
// the other shows both follow the specification, not merely each other. It reads the clock
// itself, so the tests that use it sign with the current time.

const NOW = new Date('2026-11-24T10:00:05.000Z');
const BODY = JSON.stringify(WEBHOOK_EVENT_SAMPLES['vote.added']);
const SECRET = newWebhookSecret();

function signed(overrides: { body?: string; secrets?: string | string[]; at?: Date } = {}) {
  const body = overrides.body ?? BODY;
  const headers = signWebhook({ id: 'msg_1', timestamp: overrides.at ?? NOW, body, secrets: overrides.secrets ?? SECRET });
  return { body, headers: headers as Record<string, string>, secrets: SECRET, now: NOW } satisfies VerifyWebhookInput;
}

/** The reason `verify` refuses with; fails the test when it does not throw a WebhookVerificationError. */
function refusal(input: VerifyWebhookInput): WebhookVerificationReason {
  try {
    verifyWebhook(input);
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookVerificationError).and.instanceOf(FeedbackError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error('expected verifyWebhook to throw, but it returned');
}

describe('webhooks: Standard Webhooks signing and verifying', () => {
  describe('agreement with the specification and its own library', () => {
    it('when a secret is made, then it is whsec_ and the base64 of 24 random bytes', () => {
      const secret = newWebhookSecret();
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(24);
      expect(newWebhookSecret()).to.not.equal(secret);
    });

    it('when signWebhook signs a body, then standardwebhooks verifies it and reads the same JSON', () => {
      const headers = signWebhook({ id: 'msg_2', timestamp: new Date(), body: BODY, secrets: SECRET });
      expect(new Webhook(SECRET).verify(BODY, headers)).to.deep.equal(JSON.parse(BODY));
    });

    it('when standardwebhooks signs a body, then verifyWebhook verifies it and returns the event', () => {
      const at = new Date();
      const headers = { 'webhook-id': 'msg_3', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign('msg_3', at, BODY) };
      expect(verifyWebhook({ body: BODY, headers, secrets: SECRET })).to.deep.equal(WEBHOOK_EVENT_SAMPLES['vote.added']);
    });

    it('when the body is raw bytes and the headers a fetch Headers or a record with other cases, then it verifies the same', () => {
      const { headers } = signed();
      const bytes = Buffer.from(BODY);
      expect(verifyWebhook({ body: bytes, headers: new Headers(headers), secrets: SECRET, now: NOW }).id).to.equal(WEBHOOK_EVENT_SAMPLES['vote.added'].id);
      const shouted = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), [value]]));
      expect(verifyWebhook({ body: new Uint8Array(bytes), headers: shouted, secrets: SECRET, now: NOW }).type).to.equal('vote.added');
    });

    it('when a secret is rotated, then the body carries two v1 signatures and a receiver with either secret alone verifies it', () => {
      const older = newWebhookSecret();
      const { headers, body } = signed({ secrets: [SECRET, older] });
      expect(headers['webhook-signature']!.split(' ')).to.have.length(2).and.satisfy((all: string[]) => all.every((one) => one.startsWith('v1,')));
      for (const secret of [SECRET, older]) {
        expect(verifyWebhook({ body, headers, secrets: secret, now: NOW }).type).to.equal('vote.added');
        expect(new Webhook(secret).verify(body, signWebhook({ id: 'msg_4', timestamp: new Date(), body, secrets: [SECRET, older] }))).to.be.an('object');
      }
      // A receiver that holds both (and a third) while it moves over verifies the one sender's signature.
      const onlyOlder = signed({ secrets: older });
      expect(verifyWebhook({ ...onlyOlder, secrets: [newWebhookSecret(), SECRET, older] }).type).to.equal('vote.added');
    });
  });

  describe('refusals', () => {
    it('when the body is changed after signing, or re-serialised with other spacing, then it is bad-signature', () => {
      const input = signed();
      expect(refusal({ ...input, body: BODY.replace('"voteCount":13', '"voteCount":14') })).to.equal('bad-signature');
      expect(refusal({ ...input, body: JSON.stringify(JSON.parse(BODY), null, 2) })).to.equal('bad-signature');
    });

    it('when the secret is another one, then it is bad-signature', () => {
      expect(refusal({ ...signed(), secrets: newWebhookSecret() })).to.equal('bad-signature');
    });

    it('when the id or the timestamp header is changed, then it is bad-signature: both are signed', () => {
      const input = signed();
      expect(refusal({ ...input, headers: { ...input.headers, 'webhook-id': 'msg_other' } })).to.equal('bad-signature');
      const later = String(Number(input.headers['webhook-timestamp']) + 1);
      expect(refusal({ ...input, headers: { ...input.headers, 'webhook-timestamp': later } })).to.equal('bad-signature');
    });

    it('when the timestamp is more than the tolerance in the past or the future, then it is stale-timestamp; at the tolerance it verifies', () => {
      for (const offset of [-301, 301]) expect(refusal(signed({ at: new Date(NOW.getTime() + offset * 1000) }))).to.equal('stale-timestamp');
      for (const offset of [-300, 300]) expect(verifyWebhook(signed({ at: new Date(NOW.getTime() + offset * 1000) })).type).to.equal('vote.added');
      expect(refusal({ ...signed({ at: new Date(NOW.getTime() - 61_000) }), toleranceSeconds: 60 })).to.equal('stale-timestamp');
    });

    it('when a header is missing, empty, given twice, or the timestamp is not whole seconds, then it is missing-headers', () => {
      const input = signed();
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const { [name]: _left, ...rest } = input.headers;
        expect(refusal({ ...input, headers: rest }), name).to.equal('missing-headers');
        expect(refusal({ ...input, headers: { ...input.headers, [name]: '' } }), `${name} empty`).to.equal('missing-headers');
      }
      expect(refusal({ ...input, headers: { ...input.headers, 'webhook-id': ['msg_1', 'msg_2'] } })).to.equal('missing-headers');
      for (const timestamp of ['1795644005.5', '-1', 'soon']) {
        expect(refusal({ ...input, headers: { ...input.headers, 'webhook-timestamp': timestamp } }), timestamp).to.equal('missing-headers');
      }
    });

    it('when the only signature is v2 (or v1a), then it is bad-signature even with the right bytes; beside a good v1 they are skipped', () => {
      const input = signed();
      const digest = input.headers['webhook-signature']!.slice('v1,'.length);
      expect(refusal({ ...input, headers: { ...input.headers, 'webhook-signature': `v2,${digest}` } })).to.equal('bad-signature');
      expect(refusal({ ...input, headers: { ...input.headers, 'webhook-signature': `v1a,${digest}` } })).to.equal('bad-signature');
      const mixed = `v2,${digest} v1,${Buffer.alloc(32).toString('base64')} v1,${digest}`;
      expect(verifyWebhook({ ...input, headers: { ...input.headers, 'webhook-signature': mixed } }).type).to.equal('vote.added');
    });

    it('when a signed body is not JSON, or a known type breaks its schema (a voter hash instead of null), then it is bad-body naming the field', () => {
      expect(refusal(signed({ body: 'not json' }))).to.equal('bad-body');
      const hashed = { ...WEBHOOK_EVENT_SAMPLES['vote.added'], data: { feedback: { id: WEBHOOK_EVENT_SAMPLES['vote.added'].data.feedback.id, voteCount: 1 }, endUser: 'a1b2c3' } };
      const input = signed({ body: JSON.stringify(hashed) });
      expect(refusal(input)).to.equal('bad-body');
      expect(() => verifyWebhook(input)).to.throw(/data\.endUser/);
    });

    it('when the caller passes a secret that is not whsec_ base64, no secret, or a parsed body, then it is a FeedbackError of the caller, not a refusal', () => {
      const input = signed();
      for (const secrets of ['sk_live_123', 'whsec_not*base64', 'whsec_', []]) {
        expect(() => verifyWebhook({ ...input, secrets }), String(secrets)).to.throw(FeedbackError).that.is.not.instanceOf(WebhookVerificationError);
      }
      const parsed = JSON.parse(BODY) as unknown as string;
      expect(() => verifyWebhook({ ...input, body: parsed })).to.throw(FeedbackError, /raw body/);
    });

    it('when signWebhook gets an id with a dot or a space, or a timestamp in milliseconds, then it throws instead of signing', () => {
      const base = { body: BODY, secrets: SECRET, timestamp: NOW };
      expect(() => signWebhook({ ...base, id: 'msg.1' })).to.throw(FeedbackError, /'\.'/);
      expect(() => signWebhook({ ...base, id: 'msg 1' })).to.throw(FeedbackError);
      expect(() => signWebhook({ ...base, id: 'msg_1', timestamp: NOW.getTime() })).to.throw(FeedbackError, /milliseconds/);
      expect(signWebhook({ ...base, id: 'msg_1', timestamp: NOW.getTime() / 1000 })).to.deep.equal(signWebhook({ ...base, id: 'msg_1' }));
    });
  });

  describe('events', () => {
    it('when every event type is signed and verified, then each returns its sample and is a known event', () => {
      expect(Object.keys(WEBHOOK_EVENT_SAMPLES)).to.have.members([...WEBHOOK_EVENT_TYPES]);
      for (const type of WEBHOOK_EVENT_TYPES) {
        const event = verifyWebhook(signed({ body: JSON.stringify(WEBHOOK_EVENT_SAMPLES[type]) }));
        expect(event, type).to.deep.equal(WEBHOOK_EVENT_SAMPLES[type]);
        expect(isKnownWebhookEvent(event), type).to.equal(true);
      }
    });

    it('when a known event is narrowed on its type, then its data is typed per type (checked by the compiler)', () => {
      const summary = (event: WebhookEvent | UnknownWebhookEvent): string => {
        if (!isKnownWebhookEvent(event)) return `unknown ${event.type}`;
        switch (event.type) {
          case 'feedback.created': return `${event.data.feedback.title}: ${event.data.feedback.description ?? ''}`;
          case 'feedback.status_changed': return `${event.data.from} -> ${event.data.to} by ${event.data.actor ?? 'someone'}`;
          case 'feedback.merged': return `${event.data.source.title} into ${event.data.target.title}`;
          case 'feedback.deleted': return `deleted ${event.data.feedback.status} ${event.data.feedback.type}`;
          case 'vote.added':
          case 'vote.removed': {
            const voter: WebhookEndUser | null = event.data.endUser;
            return `${event.data.feedback.voteCount} votes, ${voter?.externalId ?? 'anonymous'}`;
          }
          case 'comment.created': return `${event.data.comment.author.isTeam ? 'team' : 'user'}: ${event.data.comment.content}`;
          case 'comment.updated': return `${event.data.comment.isPinned ? 'pinned' : 'edited'}: ${event.data.comment.content}`;
          case 'comment.deleted': return `deleted with ${event.data.repliesDeleted} replies`;
          case 'user.erased': return `forget ${event.data.endUser.externalId}`;
          case 'changelog.published': return `shipped ${event.data.entry.title} (${event.data.entry.items.length} items)`;
          case 'notification.created': return `${event.data.notification.kind} to ${event.data.recipients.length} recipients`;
          case 'webhook.test': return event.data.message;
          default: return event satisfies never;
        }
      };
      expect(summary(WEBHOOK_EVENT_SAMPLES['vote.removed'])).to.equal('12 votes, anonymous');
      expect(summary(WEBHOOK_EVENT_SAMPLES['feedback.status_changed'])).to.equal('under-review -> planned by Dana');
      expect(summary(WEBHOOK_EVENT_SAMPLES['comment.deleted'])).to.equal('deleted with 1 replies');
      expect(summary(WEBHOOK_EVENT_SAMPLES['notification.created'])).to.equal('status_changed to 1 recipients');
    });

    it('when a newer server adds fields, then the event still verifies and the added fields are left out', () => {
      const sample = WEBHOOK_EVENT_SAMPLES['comment.created'];
      const newer = { ...sample, apiVersion: 2, data: { ...sample.data, project: { slug: 'app' }, comment: { ...sample.data.comment, edited: false } } };
      expect(verifyWebhook(signed({ body: JSON.stringify(newer) }))).to.deep.equal(sample);
    });

    it('when a newer server sends a type this version does not know, then it verifies as an unknown event with its data as sent', () => {
      const future = { id: '0192f4a3-0000-7000-8000-0000000000ff', type: 'feedback.archived', timestamp: '2026-11-24T10:00:00.000Z', data: { feedback: { id: 'x' }, extra: [1] } };
      const event = verifyWebhook(signed({ body: JSON.stringify(future) }));
      expect(isKnownWebhookEvent(event)).to.equal(false);
      expect(event).to.deep.equal(future);
    });

    it('when an unknown type breaks the envelope (no id, a timestamp that is not ISO), then it is bad-body', () => {
      const { id: _id, ...noId } = { id: 'x', type: 'feedback.archived', timestamp: '2026-11-24T10:00:00.000Z', data: {} };
      expect(refusal(signed({ body: JSON.stringify(noId) }))).to.equal('bad-body');
      expect(refusal(signed({ body: JSON.stringify({ ...noId, id: WEBHOOK_EVENT_SAMPLES['webhook.test'].id, timestamp: 'yesterday' }) }))).to.equal('bad-body');
    });
  });
});
