import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/**
 * Issue 37, "+json bodies read as empty": the 415 gate let every `*\/*+json` type through while
 * the parser read only its own list, so `application/ld+json` bodies arrived as `{}`. Now one list
 * decides both: a body is either read as sent, or refused with a 415 that changes nothing.
 */

/** Types the gate lets through, each of which must now be read: +json types, case and parameters. */
const READ_TYPES = [
  'application/ld+json',
  'application/problem+json',
  'application/vnd.api+json',
  'APPLICATION/LD+JSON',
  'Application/Json',
  'application/ld+json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json;charset="utf-8"',
  'application/json ; charset=utf8',
];

/** Types the parser does not read as sent: refused before anything is read. */
const REFUSED_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  // koa-bodyparser's own list reads it as JSON; the gate never let it through, and still does not.
  'application/csp-report',
  'application/json-seq',
  'text/json',
  'application/json; charset=latin1',
  'application/ld+json; charset=utf-16',
];

for (const backend of backends()) {
  describe(`+json bodies read as empty: one list for the 415 gate and the parser (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;
    let itemId: string;
    let webhookId: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      // Submitted by a named user: an anonymous submission would count as this address's vote.
      itemId = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Typed bodies', endUser: { externalId: 'author' } } })).body.feedback.id;
      const listen = await request(server, 'POST', '/api/v1/webhooks/listen', { apiKey: secretKey, body: { forwardTo: 'http://localhost:9999/hook' } });
      expect(listen.status).to.equal(201);
      webhookId = listen.body.webhook.id;
    });

    const send = (path: string, contentType: string, body: unknown, apiKey?: string) =>
      request(server, 'POST', path, { rawBody: JSON.stringify(body), headers: { 'content-type': contentType }, apiKey });
    const voteState = async (query = '') => (await request(server, 'GET', `/api/v1/feedback/${itemId}/vote${query}`)).body as { voted: boolean; voteCount: number };

    it('when an identified vote is sent as application/ld+json (and each +json, case and charset variant), then it is the user\'s vote, never the caller\'s anonymous one', async () => {
      for (const [index, type] of READ_TYPES.entries()) {
        const externalId = `ld-voter-${index}`;
        const before = await voteState();
        const res = await send(`/api/v1/feedback/${itemId}/vote`, type, { endUser: { externalId } });
        expect(res.status, type).to.equal(200);
        expect(res.body, type).to.deep.equal({ voted: true, voteCount: before.voteCount + 1 });
        expect(await voteState(`?endUserId=${externalId}`), type).to.deep.include({ voted: true });
        // The caller's address has no vote of its own: the body was read.
        expect((await voteState()).voted, type).to.equal(false);
      }
    });

    it('when a submission and an identify are sent as application/ld+json (and each variant), then they are read as sent, not answered "Title is required"', async () => {
      for (const [index, type] of READ_TYPES.entries()) {
        const submitted = await send('/api/v1/feedback', type, { title: `Linked data ${index}`, endUser: { externalId: `ld-author-${index}` } });
        expect(submitted.status, `${type}: ${JSON.stringify(submitted.body)}`).to.equal(201);
        expect(submitted.body.feedback.title, type).to.equal(`Linked data ${index}`);
        const identified = await send('/api/v1/identify', type, { externalId: `ld-user-${index}`, name: `Linked ${index}` });
        expect(identified.status, `${type}: ${JSON.stringify(identified.body)}`).to.equal(200);
        expect(identified.body.user.name, type).to.equal(`Linked ${index}`);
      }
    });

    it('when rotate-secret is sent as application/ld+json with graceSeconds 0 (and each variant), then the grace is 0, not the default day', async () => {
      for (const type of READ_TYPES) {
        const res = await send(`/api/v1/webhooks/${webhookId}/rotate-secret`, type, { graceSeconds: 0 }, secretKey);
        expect(res.status, `${type}: ${JSON.stringify(res.body)}`).to.equal(200);
        expect(res.body.webhook.previousSecretExpiresAt, type).to.equal(null);
      }
    });

    it('when a body comes with a type or charset the parser does not read as sent, then vote, submit, identify and rotate-secret answer 415 and change nothing', async () => {
      const rows = async () =>
        (await server.sql<{ print: string }>(`select (select count(*) from votes) || '/' || (select count(*) from feedback) || '/' || (select count(*) from end_users) || '/' || (select string_agg(coalesce(previous_secret_expires_at::text, '-'), ',') from webhook_endpoints) as print`))[0]!.print;
      const before = await rows();
      const calls: [string, unknown, string?][] = [
        [`/api/v1/feedback/${itemId}/vote`, { endUser: { externalId: 'refused-voter' } }],
        ['/api/v1/feedback', { title: 'Refused' }],
        ['/api/v1/identify', { externalId: 'refused-user' }],
        [`/api/v1/webhooks/${webhookId}/rotate-secret`, { graceSeconds: 60 }, secretKey],
      ];
      for (const type of REFUSED_TYPES) {
        const charset = /charset/.test(type);
        for (const [path, body, apiKey] of calls) {
          const res = await send(path, type, body, apiKey);
          expect(res.status, `${type} ${path}`).to.equal(415);
          expect(res.body, `${type} ${path}`).to.deep.equal({
            error: charset ? 'Unsupported charset: send JSON in UTF-8' : 'Unsupported Media Type: send the body as JSON with Content-Type: application/json',
          });
        }
      }
      // And a body with no Content-Type at all.
      const untyped = await request(server, 'POST', `/api/v1/feedback/${itemId}/vote`, { rawBody: '{"endUser":{"externalId":"untyped"}}' });
      expect(untyped.status).to.equal(415);
      expect(await rows()).to.equal(before);
      expect((await voteState()).voted).to.equal(false);
    });

    it('when a vote has no body at all, whatever its Content-Type, then it is still the anonymous vote the spec describes', async () => {
      for (const type of ['text/plain', 'application/ld+json']) {
        const on = await request(server, 'POST', `/api/v1/feedback/${itemId}/vote`, { headers: { 'content-type': type } });
        expect(on.status, type).to.equal(200);
        expect(on.body.voted, type).to.equal(true);
        const off = await request(server, 'POST', `/api/v1/feedback/${itemId}/vote`, { headers: { 'content-type': type } });
        expect(off.body.voted, type).to.equal(false);
      }
    });
  });
}
