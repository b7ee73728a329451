import { expect } from 'chai';
import { hasLink, readableText } from '@feedbackd/server/testing';

/**
 * Moderation's link finder (server/src/domain/moderation/links.ts, docs/moderation.md, "Hold links"): the one
 * that decides a hold, on the text as a reader sees it. The API's own tests (moderation.test.ts)
 * post these through both backends; here the cases are many and need no database.
 */
describe('link detection for moderation', () => {
  it('when a text holds a link a filter of well-known TLDs misses (issue 49: newer TLDs, host:port, bare IPs, zero-width splits, fullwidth and ideographic dots), then it has a link', () => {
    const links = [
      'visit cheap.app now', 'x.dev', 'buy.xyz', 'notes.zip', 'example.online', 'shop.example.co.uk', 'SHOUT.COM',
      'evil.com:8080', 'evil.app:443/path', 'evil.internal:8443', 'evil.example:8443/x', 'intranet:8080/admin', 'see 10.0.0.1', '10.0.0.1:8080', '[2001:db8::1]', 'http://[::1]/', '2001:db8::1', 'fe80::1%eth0',
      'exa\u200Bmple.com', 'example\u200B.com', 'example\u2060.app', 'ex\u00ADample.com', 'exam\uFE0Fple.com', 'example\u200E.com', 'example\uFEFF.com',
      'ｅｘａｍｐｌｅ．ｃｏｍ', 'example\uFF0Ecom', 'example\u3002com', 'example\uFF61com', 'example\u2024com',
      'пример.рф', '例子。中国', 'example[.]com', 'example (dot) com', 'example(.)app',
      'https://example', 'hxxp://evil', 'mailto:ann@x', 'ann@mail.app', 'www.example', 'localhost:3000',
    ];
    for (const text of links) expect(hasLink(text), JSON.stringify(text)).to.equal(true);
  });

  it('when a text has no address in it (versions, times, code, abbreviations, prices), then it has no link', () => {
    const plain = [
      'Dark mode please', 'node.js is great', 'Vue.js and Next.js', 'e.g. this', 'i.e. that', 'U.S. users', 'version 1.2.3', '1.2.3.4.5 build',
      '12:30:45', 'ratio 16:9', 'std::vector', 'a::b', '$3.50 each', '3.14159', 'Hello world.', 'Use the .app file', 'www. is a prefix', 'see localhost', 'intranet:8080', 'Note:1234',
      'un café·bar', '点。を打つ',
    ];
    for (const text of plain) expect(hasLink(text), JSON.stringify(text)).to.equal(false);
  });

  it('when a text is read for links, then it is NFKC-normalised, its invisible characters removed and its dot-likes made dots; the post itself is kept as written', () => {
    expect(readableText('ｅｘａ\u200Bｍｐｌｅ。ｃｏｍ')).to.equal('example.com');
    expect(readableText('Ａｂｃ \u202Eevil\u202C')).to.equal('Abc evil');
  });
});
