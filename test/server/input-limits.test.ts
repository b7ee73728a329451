import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

const NUL = '\u0000';

/** JSON text of a value nested `levels` deep, arrays inside arrays (too deep for JSON.stringify to build). */
function nested(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

/** A submission whose metadata holds `nested(levels)`, as raw JSON text. */
function deepSubmission(levels: number): { rawBody: string; headers: Record<string, string> } {
  return { rawBody: `{"title":"deep","metadata":{"a":${nested(levels)}}}`, headers: { 'content-type': 'application/json' } };
}

/**
 * Regressions of two 500s a hostile-input run found: NUL characters reaching PostgreSQL (which
 * cannot store them in text or jsonb), and deeply nested JSON overflowing the stack when metadata
 * or the idempotency fingerprint was serialised. Both are now the spec's 400 "Invalid input".
 */
for (const backend of backends()) {
  describe(`input limits: NUL characters and nesting depth (${backend.name})`, () => {
    const server = withServer(backend);
    let itemId: string;
    before(async () => {
      itemId = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Target' } })).body.feedback.id;
    });

    async function rowCounts(): Promise<Record<string, number>> {
      const [row] = await server.server.orm.em.fork().execute<Record<string, number>[]>(
        `select (select count(*)::int from feedback) as feedback, (select count(*)::int from end_users) as end_users,
                (select count(*)::int from votes) as votes, (select count(*)::int from idempotency_keys) as idempotency_keys`,
      );
      return row!;
    }

    async function expectRefused(res: { status: number; body: any }, field: string, message: RegExp): Promise<void> {
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors[field]).to.be.an('array');
      expect(res.body.details.fieldErrors[field][0]).to.match(message);
    }

    const BODIES: { label: string; method: 'POST'; path: () => string; body: Record<string, unknown>; field: string }[] = [
      { label: 'a title', method: 'POST', path: () => '/api/v1/feedback', body: { title: `a${NUL}b` }, field: 'title' },
      { label: 'a description', method: 'POST', path: () => '/api/v1/feedback', body: { title: 't', description: `x${NUL}` }, field: 'description' },
      { label: 'a metadata value', method: 'POST', path: () => '/api/v1/feedback', body: { title: 't', metadata: { k: [`v${NUL}`] } }, field: 'metadata' },
      { label: 'a metadata key', method: 'POST', path: () => '/api/v1/feedback', body: { title: 't', metadata: { [`k${NUL}`]: 1 } }, field: 'metadata' },
      { label: "a submitter's externalId", method: 'POST', path: () => '/api/v1/feedback', body: { title: 't', endUser: { externalId: `u${NUL}` } }, field: 'endUser' },
      { label: 'an identified externalId', method: 'POST', path: () => '/api/v1/identify', body: { externalId: `u${NUL}` }, field: 'externalId' },
      { label: 'an identified name', method: 'POST', path: () => '/api/v1/identify', body: { externalId: 'u', name: `n${NUL}` }, field: 'name' },
      { label: "a voter's name", method: 'POST', path: () => `/api/v1/feedback/${itemId}/vote`, body: { endUser: { externalId: 'v', name: `n${NUL}` } }, field: 'endUser' },
    ];
    for (const { label, method, path, body, field } of BODIES) {
      it(`regression (500 on NUL): when ${label} contains a NUL character, then it is a 400 on fieldErrors.${field} and nothing is written`, async () => {
        const before = await rowCounts();
        await expectRefused(await request(server, method, path(), { body }), field, /must not contain NUL characters/);
        expect(await rowCounts()).to.deep.equal(before);
      });
    }

    for (const [label, path] of [
      ['the detail view', () => `/api/v1/feedback/${itemId}?endUserId=a%00b`],
      ['the vote check', () => `/api/v1/feedback/${itemId}/vote?endUserId=a%00b`],
    ] as const) {
      it(`regression (500 on NUL): when endUserId of ${label} contains a NUL character, then it is a 400 on fieldErrors.endUserId`, async () => {
        await expectRefused(await request(server, 'GET', path()), 'endUserId', /must not contain NUL characters/);
      });
    }

    it('regression (500 on NUL): when a search contains a NUL character, then it is a 400 on fieldErrors.search', async () => {
      await expectRefused(await request(server, 'GET', '/api/v1/feedback?search=a%00b'), 'search', /must not contain NUL characters/);
    });

    it('regression (500 on deep JSON): when metadata is nested 20,000 levels deep, then it is a 400 on fieldErrors.metadata and nothing is written', async () => {
      const before = await rowCounts();
      await expectRefused(await request(server, 'POST', '/api/v1/feedback', deepSubmission(20_000)), 'metadata', /nested too deeply/);
      expect(await rowCounts()).to.deep.equal(before);
    });

    it('regression (500 on deep JSON): when a deeply nested body carries an Idempotency-Key, then it is a 400 and the key is not reserved', async () => {
      const before = await rowCounts();
      const deep = deepSubmission(20_000);
      const res = await request(server, 'POST', '/api/v1/feedback', { ...deep, headers: { ...deep.headers, 'idempotency-key': 'deep-body-key' } });
      await expectRefused(res, 'metadata', /nested too deeply/);
      expect(await rowCounts()).to.deep.equal(before);
    });

    it('limits: when metadata is nested exactly as deep as allowed (32 levels with the body), then it is stored', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', deepSubmission(30));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });

    it('regression (issue 24, depth counted from the fields): when a body is nested 33 containers deep, then it is a 400 on fieldErrors.metadata and nothing is written', async () => {
      const before = await rowCounts();
      const res = await request(server, 'POST', '/api/v1/feedback', deepSubmission(31));
      expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: [], fieldErrors: { metadata: ['metadata is nested too deeply (at most 32 levels)'] } } });
      expect(res.status).to.equal(400);
      expect(await rowCounts()).to.deep.equal(before);
    });

    it('limits: when a body that is an array is nested 33 levels deep, then the depth is a form error (the body itself counts as level 1)', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { rawBody: nested(33), headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.details.formErrors).to.deep.equal(['The request body is nested too deeply (at most 32 levels)']);
    });

    it('limits: when the body is an array holding a NUL character, then it is a 400 with a form error', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: [`a${NUL}`] });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: ['The request body must not contain NUL characters'], fieldErrors: {} } });
    });

    // Found by the hostile-input suite (test/security/fuzz.test.ts): PostgreSQL's json parser
    // refuses a lone surrogate escape, so a voter's metadata holding one was a 500.
    for (const [label, path, body, field] of [
      ["a voter's metadata value", () => `/api/v1/feedback/${itemId}/vote`, { endUser: { externalId: 'v', metadata: { k: 'a\udfffb' } } }, 'endUser'],
      ["a voter's metadata key", () => `/api/v1/feedback/${itemId}/vote`, { endUser: { externalId: 'v', metadata: { '\ud800': 1 } } }, 'endUser'],
      ['an item title', () => '/api/v1/feedback', { title: 'half \ud83d of an emoji' }, 'title'],
      ['item metadata', () => '/api/v1/feedback', { title: 't', metadata: { k: ['\udc00'] } }, 'metadata'],
    ] as const) {
      it(`regression (500 on a lone surrogate): when ${label} holds a lone UTF-16 surrogate, then it is a 400 on fieldErrors.${field} and nothing is written`, async () => {
        const before = await rowCounts();
        await expectRefused(await request(server, 'POST', path(), { body }), field, /must be valid Unicode/);
        expect(await rowCounts()).to.deep.equal(before);
      });
    }

    it('regression (issue 24, "__proto__" called malformed): when a body has a top-level "__proto__" key, then it is accepted and the key is dropped like any unknown field', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { rawBody: '{"title":"x","__proto__":{"a":1}}', headers: { 'content-type': 'application/json' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.feedback.title).to.equal('x');
      expect(({} as Record<string, unknown>).a, 'no prototype was polluted').to.equal(undefined);
    });

    it('regression (issue 24): when metadata holds "__proto__" keys (plain or escaped, at any depth), then the item is stored with the other keys and without them', async () => {
      const rawBody = '{"title":"meta","metadata":{"plan":"pro","__proto__":{"polluted":true},"nested":{"\\u005f_proto__":{"polluted":true},"k":1}}}';
      const res = await request(server, 'POST', '/api/v1/feedback', { rawBody, headers: { 'content-type': 'application/json' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const [row] = await server.server.orm.em.fork().execute<{ metadata: unknown }[]>('select metadata from feedback where id = ?', [res.body.feedback.id]);
      expect(row!.metadata).to.deep.equal({ plan: 'pro', nested: { k: 1 } });
      expect(({} as Record<string, unknown>).polluted, 'no prototype was polluted').to.equal(undefined);
    });

    it('limits: when a string holds a whole emoji (a surrogate pair), then it is stored as it is', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'thumbs \ud83d\udc4d', metadata: { '\ud83d\ude00': 'ok' } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.feedback.title).to.equal('thumbs 👍');
    });
  });
}
