import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type pg from 'pg';
import { VOTER_SECRET_FILE, VoterSecretError, voterKeyOf } from '@feedbackd/server';
import { loadVoterSecret, rekeyLegacyVoterKey, rekeyLegacyVoters } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';
import { dumpOf } from '../helpers/transfer.js';

/** The key an older server stored, and a dump's salt alone still computes: `ip:` and HMAC(salt, address). */
const legacyKey = (salt: string, ip: string) => `ip:${createHmac('sha256', salt).update(ip).digest('base64url')}`;

/**
 * Issue 37, finding 5: a dump held each project's voter salt beside every anonymous voter's key,
 * HMAC(salt, address), so the whole IPv4 space could be tried offline. Keys are now HMACs under a
 * server secret that no dump holds (db/voter-secret.ts).
 */
for (const backend of backends()) {
  describe(`anonymous voters in dumps and in the database (issue 37 finding 5) (${backend.name})`, () => {
    let client: pg.PoolClient | undefined;
    // Registered before the server's: hooks after run in order, and the server's close waits for this connection.
    after(() => client?.release());
    const server = withServer(backend);
    let secret: Buffer;
    let salt: string;
    let project: string;

    let db: pg.PoolClient;
    before(async () => {
      db = client = await (await server.server.orm.em.getConnection().getNativeClient()).connect();
      secret = await loadVoterSecret(db, server.database.location, {});
      const { rows } = await db.query<{ id: string; voter_salt: string }>("select id::text, voter_salt from projects where slug = 'default'");
      project = rows[0]!.id;
      salt = rows[0]!.voter_salt;
    });

    /** An anonymous submission: it comes with its submitter's vote, keyed by the address. */
    const submit = async (title: string) => (await request(server, 'POST', '/api/v1/feedback', { body: { title } })).body.feedback.id as string;
    const vote = async (id: string) => (await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: {} })).body as { voted: boolean; voteCount: number };

    it('when a dump holds an anonymous vote from 127.0.0.1, then its salt recovers no address: trying 127.0.0.0/24 with it finds no key', async () => {
      const id = await submit('Voted from loopback');
      const dump = await dumpOf(server.server.orm);
      const records = dump.trim().split('\n').slice(1).map((line) => JSON.parse(line) as { type: string; data: Record<string, string | null> });
      const dumpSalt = records.find((r) => r.type === 'project' && r.data.slug === 'default')!.data.voterSalt!;
      const keys = records.filter((r) => r.type === 'vote' && r.data.itemId === id).map((r) => r.data.voterKey);
      expect(keys).to.have.length(1);
      // The reproduction: every address of 127.0.0.0/24, hashed with the dump's salt as before.
      const tried = new Set(Array.from({ length: 256 }, (_, i) => legacyKey(dumpSalt, `127.0.0.${i}`)));
      expect(keys.filter((key) => tried.has(key!))).to.deep.equal([]);
      // It is that address's key, under the secret the dump does not hold.
      expect(keys[0]).to.equal(voterKeyOf(secret, dumpSalt, '127.0.0.1')).and.match(/^ip2:[\w-]{43}$/);
      expect(dump).not.to.include(secret.toString()).and.not.to.include(secret.toString('base64url'));
    });

    it('when the secret is made, then it lives outside the database on the embedded one (a 0600 file) and only its fingerprint in the table; on PostgreSQL without FEEDBACK_VOTER_SECRET, in the table', async () => {
      const [row] = (await db.query<{ fingerprint: string; secret: string | null }>('select fingerprint, secret from voter_secret')).rows;
      expect(row!.fingerprint).to.match(/^[\w-]{43}$/);
      if (backend.name === 'embedded') {
        const file = join(server.database.location.dataDir, VOTER_SECRET_FILE);
        expect(statSync(file).mode & 0o777).to.equal(0o600);
        expect(readFileSync(file, 'utf8').trim()).to.equal(secret.toString());
        expect(row!.secret).to.equal(null);
      } else {
        expect(row!.secret).to.equal(secret.toString());
      }
    });

    it('when votes were keyed as before the secret (a voter twice: once each way), then re-keying keeps one vote each, the counts exact, and the voter can take theirs back', async () => {
      const [once, twice] = [await submit('Legacy vote'), await submit('Legacy and new vote')];
      // The submitter's own votes taken back: the items start with none.
      for (const item of [once, twice]) expect(await vote(item)).to.deep.equal({ voted: false, voteCount: 0 });
      const legacy = legacyKey(salt, '127.0.0.1');
      for (const item of [once, twice]) await db.query('select * from toggle_vote($1::uuid, $2::uuid, $3, null)', [item, project, legacy]);
      expect(await vote(twice)).to.deep.equal({ voted: true, voteCount: 2 });
      expect(await rekeyLegacyVoters(db, secret)).to.equal(2);
      const counts = async (item: string) =>
        (await db.query<{ votes: number; counted: number }>('select (select count(*)::int from votes where feedback_id = $1) as votes, vote_count as counted from feedback_counters where feedback_id = $1', [item])).rows[0];
      expect(await counts(once)).to.deep.equal({ votes: 1, counted: 1 });
      expect(await counts(twice)).to.deep.equal({ votes: 1, counted: 1 });
      expect(rekeyLegacyVoterKey(secret, legacy)).to.equal(voterKeyOf(secret, salt, '127.0.0.1'));
      const { rows } = await db.query<{ n: number }>("select count(*)::int as n from votes where voter_key like 'ip:%'");
      expect(rows[0]!.n).to.equal(0);
      expect(await vote(once)).to.deep.equal({ voted: false, voteCount: 0 });
      expect(await vote(twice)).to.deep.equal({ voted: false, voteCount: 0 });
    });

    it('when `feedback export --output` writes a dump, then the file is 0600', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'feedback-dump-')), 'dump.jsonl');
      const result = await inProcess(['export', '--output', file, ...locationOf(server)]);
      expect(result.code, result.stderr).to.equal(0);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('when a process is given another secret, or none where the database expects one, then it refuses to start rather than count voters twice', async () => {
      const location = server.database.location;
      const other = { FEEDBACK_VOTER_SECRET: 'another-secret-another-secret-another' };
      await expectRefused(() => loadVoterSecret(db, location, other), 'is not the one');
      await expectRefused(() => loadVoterSecret(db, location, { FEEDBACK_VOTER_SECRET: 'short' }), 'at least 32 characters');
      if (backend.name === 'embedded') {
        // The file lost (a data directory copied without it): no new one is made.
        await expectRefused(() => loadVoterSecret(db, { dataDir: mkdtempSync(join(tmpdir(), 'feedback-no-secret-')) }, {}), 'is missing');
      } else {
        // Moved into the variable, the secret is forgotten by the database, and then needed.
        expect(await loadVoterSecret(db, location, { FEEDBACK_VOTER_SECRET: secret.toString() })).to.deep.equal(secret);
        expect((await db.query('select secret from voter_secret')).rows[0].secret).to.equal(null);
        await expectRefused(() => loadVoterSecret(db, location, {}), 'FEEDBACK_VOTER_SECRET, which is not set');
      }
    });
  });
}

async function expectRefused(action: () => Promise<unknown>, message: string): Promise<void> {
  try {
    await action();
  } catch (error) {
    expect(error).to.be.instanceOf(VoterSecretError);
    expect((error as Error).message).to.include(message);
    return;
  }
  throw new Error('expected a VoterSecretError');
}
