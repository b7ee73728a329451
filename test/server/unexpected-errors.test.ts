import { expect } from 'chai';
import { embeddedBackend } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

describe('unexpected failures', () => {
  const server = withServer(embeddedBackend);

  it('when the database connection is gone, then identify answers 500 "Internal server error" and the stack is only in the log', async () => {
    await server.server.sql.close();
    const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'x' } });
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ error: 'Internal server error' });
    const id = res.headers.get('x-request-id');
    const errorLine = server.logs.find((line) => line.startsWith('ERROR') && line.includes(id!));
    expect(errorLine, 'the error is logged with the request id').to.be.a('string');
    expect(errorLine).to.match(/at /);
  });

  it('when the database does not answer, then /healthz is a 503 with a JSON error', async () => {
    const res = await request(server, 'GET', '/healthz', { apiKey: null });
    expect(res.status).to.equal(503);
    expect(res.body.error).to.be.a('string');
  });
});
