import { expect } from 'chai';
import { exactOrigin, normalOrigin } from '@feedbackd/server/testing';

/** The origins an operator names (server/src/http/origins.ts): one exact origin each, never a wildcard. */
describe('exact origins', () => {
  it('when an origin has a wildcard or is not one origin, then it is refused (issue 37: `board embed --origin https://*`)', () => {
    const refused = [
      'https://*', 'http://*', 'https://*.com', 'https://*.example.com', 'https://app.*.com', '*', "'self'", "'none'", 'https:', 'data:', 'blob:',
      'https://app.example.com/x', 'https://app.example.com/?', 'https://app.example.com?x', 'https://app.example.com#x', 'https://user@app.example.com',
      'ftp://app.example.com', 'javascript://app.example.com', 'app.example.com', '//app.example.com', ' https://app.example.com', 'https://app.example.com ',
      'https://a;b.example', 'https://app.example.com; script-src *', 'https://a,b.example', 'https://a_b.example', 'https://%2a.example', 'https://app.example.com.',
      'https://[::1]', 'https://app.example.com:99999', 'https://app.example.com\\', '',
    ];
    for (const given of refused) {
      expect(exactOrigin(given), given).to.equal(undefined);
      expect(() => normalOrigin(given), given).to.throw(`"${given}" is not an origin`);
    }
  });

  it('when an origin is a scheme, a host and maybe a port, then it is kept as a browser names it', () => {
    const kept: [string, string][] = [
      ['https://app.example.com', 'https://app.example.com'],
      ['https://app.example.com/', 'https://app.example.com'],
      ['HTTPS://App.Example.COM', 'https://app.example.com'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['https://app.example.com:8443', 'https://app.example.com:8443'],
      ['http://localhost:8080', 'http://localhost:8080'],
      ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['https://b\u00fccher.example', 'https://xn--bcher-kva.example'],
    ];
    for (const [given, origin] of kept) expect(exactOrigin(given), given).to.equal(origin);
  });
});
