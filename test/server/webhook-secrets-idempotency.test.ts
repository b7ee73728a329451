import { expect } from 'chai';
import { z } from 'zod';
import { routes, type RouteDefinition } from '@feedbackd/sdk/contract';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/*
 * Issue 37, "secrets in the idempotency store": `POST /webhooks` and `rotate-secret` sent with an
 * Idempotency-Key kept their `whsec_` answer for 24 hours in idempotency_keys, and replayed it to
 * any other secret key of the project that sent the same header. The routes whose answer holds a
 * secret now take no key (as the sign-in link's route): the header is ignored, nothing is stored.
 */

describe('webhooks: secrets in the idempotency store (the contract)', () => {
  it('when a route answers a secret (a signing secret or a sign-in token), then it takes no Idempotency-Key', () => {
    const holdsSecret = Object.entries(routes).filter(([, route]) =>
      Object.values(route.responses).some((schema) => /"(secret|token)"|token=/.test(JSON.stringify(z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' })))),
    );
    expect(holdsSecret.map(([name]) => name)).to.have.members(['createWebhook', 'rotateWebhookSecret', 'listenWebhook', 'createSignInLink']);
    for (const [name, route] of holdsSecret) expect((route as { idempotencyKey?: false }).idempotencyKey, name).to.equal(false);
  });

  it('when a route answers a secret (issue 49: no Cache-Control: no-store on sign-in link answers), then it is marked holdsSecret, which sends its answer no-store; no other route is', () => {
    const answersSecret = (route: RouteDefinition) => Object.values(route.responses).some((schema) => /"(secret|token)"|token=/.test(JSON.stringify(z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' }))));
    for (const [name, route] of Object.entries(routes) as [string, RouteDefinition][]) {
      expect(route.holdsSecret === true, name).to.equal(answersSecret(route));
    }
  });
});

for (const backend of backends()) {
  describe(`webhooks: secrets in the idempotency store (${backend.name})`, () => {
    const server = withServer(backend);
    let owner: string;
    let other: string;
    before(async () => {
      owner = await server.newKey(undefined, 'secret');
      other = await server.newKey(undefined, 'secret');
    });

    const post = (apiKey: string, path: string, body: unknown, key: string) =>
      request(server, 'POST', path, { apiKey, body, headers: { 'idempotency-key': key } });

    it('when a webhook is created, rotated and listened for with an Idempotency-Key (secrets in the idempotency store), then no whsec_ is ever in idempotency_keys', async () => {
      const created = await post(owner, '/api/v1/webhooks', { url: 'https://example.com/hooks' }, 'create-with-a-key');
      expect(created.status).to.equal(201);
      expect(created.body.secret).to.match(/^whsec_/);
      expect(created.headers.get('idempotent-replayed')).to.equal(null);
      const rotated = await post(owner, `/api/v1/webhooks/${created.body.webhook.id}/rotate-secret`, { graceSeconds: 60 }, 'rotate-with-a-key');
      expect(rotated.status).to.equal(200);
      expect(rotated.body.secret).to.match(/^whsec_/);
      const listening = await post(owner, '/api/v1/webhooks/listen', { forwardTo: 'http://localhost:4000/hooks' }, 'listen-with-a-key');
      expect(listening.status).to.equal(201);

      const stored = await server.sql<{ key: string; body: string | null }>('select key, body from idempotency_keys');
      expect(stored.filter((row) => row.body?.includes('whsec_'))).to.deep.equal([]);
      expect(stored.map((row) => row.key)).not.to.include.members(['create-with-a-key', 'rotate-with-a-key', 'listen-with-a-key']);
      // The secrets are where they must be, on the endpoints, and nowhere else the key's record could reach.
      const secrets = [created.body.secret, rotated.body.secret, listening.body.secret] as string[];
      const endpoints = await server.sql<{ secret: string; previous_secret: string | null }>('select secret, previous_secret from webhook_endpoints');
      expect(endpoints.flatMap((row) => [row.secret, row.previous_secret])).to.include.members(secrets);
      for (const row of stored) for (const secret of secrets) expect(row.body ?? '').not.to.include(secret);
    });

    it('when another secret key of the project repeats the Idempotency-Key of a create or a rotation (secrets in the idempotency store), then it gets no replay of the first secret', async () => {
      const first = await post(owner, '/api/v1/webhooks', { url: 'https://example.com/first' }, 'shared-create-key');
      const copycat = await post(other, '/api/v1/webhooks', { url: 'https://example.com/first' }, 'shared-create-key');
      expect(copycat.status).to.equal(201);
      expect(copycat.headers.get('idempotent-replayed')).to.equal(null);
      expect(copycat.body.secret).to.match(/^whsec_/).and.not.equal(first.body.secret);
      expect(copycat.body.webhook.id).not.to.equal(first.body.webhook.id);

      const path = `/api/v1/webhooks/${first.body.webhook.id}/rotate-secret`;
      const rotated = await post(owner, path, {}, 'shared-rotate-key');
      const repeated = await post(other, path, {}, 'shared-rotate-key');
      expect(repeated.status).to.equal(200);
      expect(repeated.headers.get('idempotent-replayed')).to.equal(null);
      expect(repeated.body.secret).not.to.equal(rotated.body.secret);
      const texts = [JSON.stringify(copycat.body), JSON.stringify(repeated.body)];
      for (const secret of [first.body.secret, rotated.body.secret] as string[]) for (const text of texts) expect(text).not.to.include(secret);
    });

    it('when a signing secret or a sign-in link is answered (issue 49: no Cache-Control: no-store on sign-in link answers), then the answer is no-store, and an ordinary answer is not', async () => {
      const created = await request(server, 'POST', '/api/v1/webhooks', { apiKey: owner, body: { url: 'https://example.com/no-store' } });
      const rotated = await request(server, 'POST', `/api/v1/webhooks/${created.body.webhook.id}/rotate-secret`, { apiKey: owner, body: {} });
      const listening = await request(server, 'POST', '/api/v1/webhooks/listen', { apiKey: owner, body: { forwardTo: 'http://localhost:4000/hooks' } });
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: owner });
      for (const [what, answer, status] of [['a created webhook', created, 201], ['a rotated secret', rotated, 200], ['a listener', listening, 201], ['a sign-in link', link, 201]] as const) {
        expect(answer.status, what).to.equal(status);
        expect(answer.headers.get('cache-control'), what).to.equal('no-store');
      }
      const listed = await request(server, 'GET', '/api/v1/webhooks', { apiKey: owner });
      expect(listed.status).to.equal(200);
      expect(listed.headers.get('cache-control')).to.equal(null);
    });
  });
}
