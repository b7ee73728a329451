import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { backends } from '../helpers/backends.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

type Caller = { url: string; apiKey: string };
const TOKEN = 'x-feedback-user-token';
const REQUIRED = { error: "A public key changes an end user's comment only with their signed token in the X-Feedback-User-Token header (or use a secret key)" };

/**
 * Issue 49, finding 5, "a public key edits or deletes any end user's comment with the author.id
 * every public comment carries": the only proof asked was a value the API publishes. Now a public
 * key changes an end user's comment only with the end user's token, signed by the customer's
 * backend with the project's identity secret (the board's and the widget's token), spent once;
 * a secret key, the board's and the widget's sessions need none (docs/api.md, "Comments").
 */
for (const backend of backends()) {
  describe(`a public key edits or deletes any end user's comment with the author.id every public comment carries (${backend.name})`, () => {
    const server = withServer(backend);
    afterEach(async () => expectCountersExact(server));

    /** A project of its own (with an identity secret unless `withSecret` is false), and a comment of Ann's on one of its items. */
    async function project(withSecret = true) {
      const slug = `proof-${randomUUID().slice(0, 8)}`;
      const team: Caller = { url: server.url, apiKey: await server.newKey(slug, 'secret') };
      const site: Caller = { url: server.url, apiKey: await server.newKey(slug, 'public') };
      const identity = withSecret ? await identitySecretOf(server, slug) : undefined;
      const item = (await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Whose words' } })).body.feedback.id as string;
      const comment = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Ann wrote this', endUser: { externalId: 'ann', name: 'Ann' } } })).body.comment;
      return { slug, team, site, identity, item, comment, path: `/api/v1/feedback/${item}/comments/${comment.id}` };
    }
    const contents = async (caller: Caller, item: string) =>
      ((await request(caller, 'GET', `/api/v1/feedback/${item}`)).body.feedback.comments as { content: string }[]).map((c) => c.content);

    it("when a public key names the author by the author.id the item's detail publishes, then edit and delete are 403 with a reason and nothing changes", async () => {
      const { site, item, path } = await project();
      const published = (await request(site, 'GET', `/api/v1/feedback/${item}`)).body.feedback.comments[0];
      expect(published.author.id, 'what anyone reads').to.equal('ann');
      const edit = await request(site, 'PATCH', path, { body: { content: 'Hijacked', endUserId: published.author.id } });
      expect(edit.status).to.equal(403);
      expect(edit.body).to.deep.equal(REQUIRED);
      const removal = await request(site, 'DELETE', `${path}?endUserId=${published.author.id}`);
      expect(removal.status).to.equal(403);
      expect(removal.body).to.deep.equal(REQUIRED);
      // Refused before anything is looked up: an unknown comment answers the same.
      const unknown = await request(site, 'DELETE', `/api/v1/feedback/${item}/comments/00000000-0000-4000-8000-000000000000?endUserId=ann`);
      expect(unknown.body).to.deep.equal(REQUIRED);
      expect(await contents(site, item)).to.deep.equal(['Ann wrote this']);
    });

    it("when a public key sends the end user's token, then they edit and delete their comment; the token is spent once, and endUserId, if given, must be the token's", async () => {
      const { slug, site, identity, item, path } = await project();
      const token = endUserToken(identity!, 'ann', slug);
      const edited = await request(site, 'PATCH', path, { body: { content: 'Ann, edited' }, headers: { [TOKEN]: token } });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.body.comment).to.include({ content: 'Ann, edited' });
      const replayed = await request(site, 'PATCH', path, { body: { content: 'Replayed' }, headers: { [TOKEN]: token } });
      expect(replayed.status).to.equal(403);
      expect(replayed.body).to.deep.equal({ error: "The end user's token has been used already: sign a new one for each request" });
      const mismatch = await request(site, 'PATCH', path, { body: { content: 'Mixed up', endUserId: 'ann' }, headers: { [TOKEN]: endUserToken(identity!, 'bob', slug) } });
      expect(mismatch.status).to.equal(403);
      expect(mismatch.body).to.deep.equal({ error: "The end user's token names another end user than endUserId" });
      // Bob's own token proves Bob, who is not the author.
      const bob = await request(site, 'DELETE', path, { headers: { [TOKEN]: endUserToken(identity!, 'bob', slug) } });
      expect(bob.status).to.equal(403);
      expect(bob.body).to.deep.equal({ error: 'Only the author of this comment can change it' });
      expect(await contents(site, item)).to.deep.equal(['Ann, edited']);
      const removed = await request(site, 'DELETE', `${path}?endUserId=ann`, { headers: { [TOKEN]: endUserToken(identity!, 'ann', slug) } });
      expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
      expect(await contents(site, item)).to.deep.equal([]);
    });

    it("when the token is expired, forged, for another project's board or signed with another secret, then 403 with why, and nothing changes", async () => {
      const { slug, site, identity, item, path } = await project();
      const other = await project();
      const now = Math.floor(Date.now() / 1000);
      const key = new TextEncoder().encode(identity!);
      const good = endUserToken(identity!, 'mallory', slug);
      const [head, , signature] = good.split('.');
      const claims = Buffer.from(JSON.stringify({ sub: 'ann', aud: slug, exp: now + 60 })).toString('base64url');
      const cases: [string, string, string][] = [
        ['expired', await new SignJWT({ sub: 'ann', aud: slug, exp: now - 120 }).setProtectedHeader({ alg: 'HS256' }).sign(key), "The end user's token has expired: sign a new one"],
        ['a claim changed to the author', `${head}.${claims}.${signature}`, "The end user's token is not valid"],
        ["another project's board", endUserToken(other.identity!, 'ann', other.slug), "The end user's token is not valid"],
        ['another secret', endUserToken('bis_not-the-secret', 'ann', slug), "The end user's token is not valid"],
        ['unsigned', `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${claims}.`, "The end user's token is not valid"],
        ['not a token', 'ann', "The end user's token is not valid"],
      ];
      for (const [what, token, error] of cases) {
        const res = await request(site, 'PATCH', path, { body: { content: 'Forged', endUserId: 'ann' }, headers: { [TOKEN]: token } });
        expect(res.status, what).to.equal(403);
        expect(res.body, what).to.deep.equal({ error });
        expect((await request(site, 'DELETE', path, { headers: { [TOKEN]: token } })).status, what).to.equal(403);
      }
      expect(await contents(site, item)).to.deep.equal(['Ann wrote this']);
    });

    it('when the project has no identity secret, then a public key cannot change an end user\'s comment (403 with what to do); a secret key acting for the author still can', async () => {
      const { site, team, item, path } = await project(false);
      const refused = await request(site, 'PATCH', path, { body: { content: 'No way', endUserId: 'ann' }, headers: { [TOKEN]: 'anything' } });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ error: 'This project takes no end-user tokens: create its identity secret (feedback board secret create), or use a secret key' });
      const byTeam = await request(team, 'PATCH', path, { body: { content: 'Ann wrote this, as support corrected', endUserId: 'ann' } });
      expect(byTeam.status, JSON.stringify(byTeam.body)).to.equal(200);
      expect(await contents(site, item)).to.deep.equal(['Ann wrote this, as support corrected']);
      expect((await request(team, 'DELETE', `${path}?endUserId=ann`)).status).to.equal(200);
    });
  });
}
