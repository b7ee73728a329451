import { expect } from 'chai';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { BOARD_TOKEN_DEFAULT_SECONDS, boardSignInLink, signBoardToken } from '@feedbackd/sdk/board';

/** The SDK's board links (sdk/src/board-links.ts), checked by jose as the board checks them (server/src/web/board/visitors.ts). */
describe('sdk board links', () => {
  const secret = 'bis_test-secret-test-secret-test-secret-0123';

  it('when a token is signed, then jose verifies it as HS256 with the project as audience, the externalId as sub and the profile as claims', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = signBoardToken({ project: 'acme', secret, user: { externalId: 'u-1', name: 'Ann', email: 'ann@example.com' } });
    expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], audience: 'acme', requiredClaims: ['exp', 'sub'] });
    expect(payload).to.include({ sub: 'u-1', aud: 'acme', name: 'Ann', email: 'ann@example.com' });
    expect(payload.jti).to.be.a('string');
    expect(payload).not.to.have.property('avatarUrl');
    expect(payload.exp! - payload.iat!).to.equal(BOARD_TOKEN_DEFAULT_SECONDS);
    expect(payload.iat).to.be.within(before, before + 2);
  });

  it('when one user gets two tokens in the same second, then they differ by a random jti (issue 37: the second was refused as used)', () => {
    const options = { project: 'acme', secret, user: { externalId: 'u-1' } };
    const jtis = new Set<string>();
    for (let i = 0; i < 100; i += 1) {
      const { jti } = JSON.parse(Buffer.from(signBoardToken(options).split('.')[1]!, 'base64url').toString()) as { jti: string };
      expect(jti, '128 random bits').to.match(/^[\w-]{22}$/);
      jtis.add(jti);
    }
    expect(jtis.size).to.equal(100);
  });

  it('when a link is made for a server under a path, then it keeps the path and carries the token and the landing page', () => {
    const link = new URL(boardSignInLink({ serverUrl: 'https://example.com/feedback', project: 'a b', secret, user: { externalId: 'u' }, returnTo: '/b/a%20b/roadmap', expiresIn: 60 }));
    expect(link.origin + link.pathname).to.equal('https://example.com/feedback/b/a%20b/sign-in');
    expect(link.searchParams.get('token')!.split('.')).to.have.length(3);
    expect(link.searchParams.get('to')).to.equal('/b/a%20b/roadmap');
  });

  it('when a lifetime is out of 1..600 seconds, or the user or secret is missing, then signing throws', () => {
    for (const expiresIn of [0, 601, 1.5, -1]) expect(() => signBoardToken({ project: 'p', secret, user: { externalId: 'u' }, expiresIn }), String(expiresIn)).to.throw(RangeError);
    expect(() => signBoardToken({ project: 'p', secret, user: { externalId: ' ' } })).to.throw(TypeError, 'user.externalId is required');
    expect(() => signBoardToken({ project: 'p', secret: '', user: { externalId: 'u' } })).to.throw(TypeError, 'secret is required');
  });
});
