import { createHmac } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { EncodedPages, html, RenderedPages, voterKeyOf } from '@feedbackd/server/testing';

/** The board's page caches (kit/compression.ts, kit/rendered-pages.ts) and the voter keys kept (db/voter-secret.ts). */

describe('page caches', () => {
  const page = (n: number) => `<!doctype html><p>${'x'.repeat(20_000)} ${n}</p>`;

  it('when the same text is encoded twice, then the second time is the bytes kept, and a text one character apart is encoded anew', () => {
    const pages = new EncodedPages(4);
    let encodings = 0;
    const encode = (text: string) => {
      encodings++;
      return Buffer.from(text);
    };
    const first = pages.encoded(page(1), encode);
    // Another string with the same characters (as each request renders its own) finds the bytes kept.
    expect(pages.encoded(`${page(1)}`.slice(0), encode)).to.equal(first);
    expect(encodings).to.equal(1);
    const other = pages.encoded(page(2), encode);
    expect(encodings).to.equal(2);
    expect(other.toString()).to.equal(page(2));
  });

  it('when more texts than the bound are encoded, then the oldest is forgotten and encoded again when asked', () => {
    const pages = new EncodedPages(2);
    const encoded: string[] = [];
    const encode = (text: string) => {
      encoded.push(text);
      return Buffer.from(text);
    };
    for (const n of [1, 2, 3, 3, 1]) pages.encoded(page(n), encode);
    expect(encoded).to.deep.equal([page(1), page(2), page(3), page(1)]);
  });

  it('when a page is rendered for a key already kept for its owner, then the page kept is returned without rendering; another owner or key renders', () => {
    const pages = new RenderedPages(2);
    const owner = {};
    let renders = 0;
    const render = (text: string) => () => {
      renders++;
      return html`<p>${text}</p>`;
    };
    const first = pages.page(owner, 'a', render('a'));
    expect(pages.page(owner, 'a', render('changed'))).to.equal(first);
    expect(renders).to.equal(1);
    expect(pages.page({}, 'a', render('other owner')).text).to.equal('<p>other owner</p>');
    expect(pages.page(owner, 'b', render('b')).text).to.equal('<p>b</p>');
    pages.page(owner, 'c', render('c'));
    expect(pages.page(owner, 'a', render('a again')).text, 'past the bound, the oldest went first').to.equal('<p>a again</p>');
    expect(renders).to.equal(5);
  });

  it('when a voter key is asked again, or for another address, salt or secret, then it is the HMAC of the HMAC each time', () => {
    const expected = (secret: Buffer, salt: string, ip: string) =>
      `ip2:${createHmac('sha256', secret).update(createHmac('sha256', salt).update(ip).digest()).digest('base64url')}`;
    const secrets = [Buffer.from('secret one'), Buffer.from('secret two')];
    for (let round = 0; round < 2; round++) {
      for (const secret of secrets) {
        for (const salt of ['salt-a', 'salt-b']) {
          for (const ip of ['127.0.0.1', '::1']) expect(voterKeyOf(secret, salt, ip)).to.equal(expected(secret, salt, ip));
        }
      }
    }
  });

  it('when gzip bytes are kept, then they decode to the page', () => {
    const pages = new EncodedPages(1);
    const text = page(7);
    expect(gunzipSync(pages.encoded(text, (t) => gzipSync(t))).toString()).to.equal(text);
  });
});
