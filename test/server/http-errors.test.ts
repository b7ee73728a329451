import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

for (const backend of backends()) {
  describe(`HTTP errors and the middleware chain (${backend.name})`, () => {
    const server = withServer(backend);

    it('when /healthz is called without a key, then it answers 200 {"status":"ok"}', async () => {
      const res = await request(server, 'GET', '/healthz', { apiKey: null });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
    });

    it('when the body is malformed JSON, then it is a 400 "Invalid input" with a formErrors message', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { rawBody: '{"externalId": ', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.formErrors[0]).to.match(/Malformed JSON/);
      expect(res.body.details.fieldErrors).to.deep.equal({});
    });

    it('when the JSON body is a bare string, then it is a 400 "Invalid input"', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { rawBody: '"hello"', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
    });

    it('when the JSON body is an array, then it is a 400 "Invalid input"', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: [{ externalId: 'a' }] });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: ['The request body must be a JSON object, not an array'], fieldErrors: {} } });
    });

    it('when the JSON body is null or a number, then it is a 400 "Invalid input" that says so, not "Malformed JSON"', async () => {
      for (const [rawBody, kind] of [
        ['null', 'null'],
        [' 42', 'a number'],
        ['"hello"', 'a string'],
        ['true', 'a boolean'],
      ]) {
        for (const path of ['/api/v1/identify', '/api/v1/feedback']) {
          const res = await request(server, 'POST', path, { rawBody, headers: { 'content-type': 'application/json' } });
          expect(res.status, `${path} ${rawBody}`).to.equal(400);
          expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: [`The request body must be a JSON object, not ${kind}`], fieldErrors: {} } });
        }
      }
    });

    it('when / is called without a key, then it answers 200 with the name, the version and where to go next', async () => {
      const res = await request(server, 'GET', '/', { apiKey: null });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ name: 'feedback' });
      expect(res.body.version).to.match(/^\d+\.\d+\.\d+/);
      expect(res.body.links).to.deep.include({ health: '/healthz', api: '/api/v1/feedback', openapi: '/api/v1/openapi.json' });
      const head = await request(server, 'HEAD', '/', { apiKey: null });
      expect(head.status).to.equal(200);
    });

    it('when the body is 2 MB, then it is a 413 with a JSON error', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'big', name: 'x'.repeat(2 * 1024 * 1024) } });
      expect(res.status).to.equal(413);
      expect(res.body.error).to.match(/too large.*1 MB/);
    });

    it('when the content type is not JSON, then it is a 415 with a JSON error', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { rawBody: 'externalId=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).to.equal(415);
      expect(res.body.error).to.match(/application\/json/);
    });

    it('when the URL is over 16 KB (issue 37), then the answer is a JSON 431 with nosniff, with or without a key, for any method', async () => {
      for (const method of ['GET', 'POST', 'HEAD']) {
        for (const apiKey of [undefined, null]) {
          const res = await fetch(`${server.url}/api/v1/feedback?search=${'a'.repeat(16 * 1024 + 1)}`, { method, headers: apiKey === null ? {} : { 'x-api-key': server.apiKey } });
          expect(res.status, method).to.equal(431);
          expect(res.headers.get('content-type'), method).to.match(/^application\/json/);
          expect(res.headers.get('x-content-type-options'), method).to.equal('nosniff');
          const text = await res.text();
          if (method !== 'HEAD') expect(JSON.parse(text), method).to.deep.equal({ error: 'Request header fields too large' });
        }
      }
    });

    it('when the x-api-key header is missing, then it is a 401 "Missing x-api-key header"', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'a' }, apiKey: null });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Missing x-api-key header' });
    });

    it('when the key is unknown, then it is a 401 "Invalid API key"', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'a' }, apiKey: `pk_${'A'.repeat(40)}` });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Invalid API key' });
    });

    it('when the key does not even look like a key, then it is a 401 "Invalid API key"', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'a' }, apiKey: 'sk_live_secret' });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Invalid API key' });
    });

    it('when both the key and the JSON are bad, then authentication answers first (401)', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { rawBody: '{', headers: { 'content-type': 'application/json' }, apiKey: null });
      expect(res.status).to.equal(401);
    });

    it('when the route is unknown, then it is a JSON 404', async () => {
      const res = await request(server, 'GET', '/api/v1/nothing-here');
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/application\/json/);
      expect(res.body.error).to.be.a('string');
    });

    it('when a known path is called with the wrong method, then it is a JSON 405 with an Allow header', async () => {
      const res = await request(server, 'GET', '/api/v1/identify');
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.include('POST');
      expect(res.body.error).to.match(/not allowed/);
    });

    it('when the identify body is not an object, then the message names the request body', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { rawBody: '[1]', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.details.formErrors[0]).to.match(/request body must be a JSON object/);
    });

    it('when a request is made, then its X-Request-Id is echoed (or generated) and one log line names it', async () => {
      const given = await request(server, 'GET', '/healthz', { apiKey: null, headers: { 'x-request-id': 'trace-123' } });
      expect(given.headers.get('x-request-id')).to.equal('trace-123');
      const generated = await request(server, 'GET', '/healthz', { apiKey: null });
      const id = generated.headers.get('x-request-id');
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      const lines = server.logs.filter((line) => line.includes(`"id":"${id}"`));
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include('"method":"GET"').and.include('"path":"/healthz"').and.include('"status":200');
    });

    it('when a request id is unsafe (too long or odd characters), then a fresh one is used', async () => {
      const res = await request(server, 'GET', '/healthz', { apiKey: null, headers: { 'x-request-id': 'a b<script>' } });
      expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('when the API key is used, then it never appears in the logs', async () => {
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'log-check' } });
      expect(server.logs.join('\n')).not.to.include(server.apiKey);
    });
  });
}
