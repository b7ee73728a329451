import { expect } from 'chai';
import * as undici from 'undici';
import { errors, from, Pool } from '@feedbackd/sdk/testing';

// The SDK's transport loads undici's Pool and errors from undici's own files, not from its entry
// file (sdk/src/undici-parts.ts). Those paths are undici's internals: when an update of the lock
// moves them or changes what they hold, this says so, instead of the SDK quietly falling back to
// the whole library (which works, only slower to start).
describe('the parts of undici the SDK loads', () => {
  it('when the SDK loads undici\'s Pool and errors from their files, then they are the very ones undici exports', () => {
    expect(from).to.equal('files');
    expect(Pool).to.equal(undici.Pool);
    expect(errors).to.equal(undici.errors);
  });

  it('when a Pool of those parts is made, then it has the request API undici attaches to its dispatchers', async () => {
    const pool = new Pool('http://127.0.0.1:9');
    try {
      expect(pool.request).to.be.a('function');
      expect(pool.request).to.equal(undici.Dispatcher.prototype.request);
    } finally {
      await pool.close();
    }
  });
});
