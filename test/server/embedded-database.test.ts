import { expect } from 'chai';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { DataDirInUseError, openDatabase, type Database } from '@feedbackd/server';
import { embeddedBackend, type FreshDatabase } from '../helpers/backends.js';

function clientFor(database: Database): pg.Client {
  const connection = database.connection;
  if ('clientUrl' in connection) throw new Error('expected an embedded database');
  return new pg.Client({ host: connection.host, port: connection.port, user: connection.user, database: connection.dbName });
}

describe('embedded database (PGlite behind a socket)', () => {
  // A blank cluster of the run's (backends.ts): what is tested here is who owns it, not how it is created.
  let fresh: FreshDatabase;
  let dataDir: string;
  beforeEach(async () => {
    fresh = await embeddedBackend.create();
    dataDir = fresh.location.dataDir;
  });
  afterEach(() => fresh.drop());

  it('when a second server opens a data directory that a live process owns, then it is refused with DataDirInUseError', async () => {
    const owner = await openDatabase({ dataDir }, 'server');
    try {
      let caught: unknown;
      await openDatabase({ dataDir }, 'server').catch((error: unknown) => {
        caught = error;
      });
      expect(caught).to.be.instanceOf(DataDirInUseError);
    } finally {
      await owner.close();
    }
  });

  it('when an operator opens a directory the server owns, then it connects through the server socket and sees the same data', async () => {
    const owner = await openDatabase({ dataDir }, 'server');
    const ownerClient = clientFor(owner);
    await ownerClient.connect();
    try {
      await ownerClient.query('create table shared (v int)');
      await ownerClient.query('insert into shared values (1)');
      const guest = await openDatabase({ dataDir }, 'operator');
      expect(guest.description).to.match(/through the server/);
      const guestClient = clientFor(guest);
      await guestClient.connect();
      const { rows } = await guestClient.query('select v from shared');
      expect(rows).to.deep.equal([{ v: 1 }]);
      await guestClient.end();
      await guest.close();
    } finally {
      await ownerClient.end();
      await owner.close();
    }
  });

  it('when two connections interleave parameterised queries and transactions, then each gets its own results (no protocol interleaving)', async () => {
    const owner = await openDatabase({ dataDir }, 'server');
    const clients = [clientFor(owner), clientFor(owner), clientFor(owner)];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      await clients[0]!.query('create table counter (id int primary key, n int not null)');
      await clients[0]!.query('insert into counter values (1, 0)');
      const work = clients.map(async (client, which) => {
        for (let i = 0; i < 40; i += 1) {
          // Extended protocol (parameters), each answer must be this client's own.
          const { rows } = await client.query('select $1::int * 1000 + $2::int as v', [which, i]);
          expect(rows[0].v).to.equal(which * 1000 + i);
          // A read-modify-write in a transaction: only safe if no other connection runs inside it.
          await client.query('begin');
          const current = await client.query('select n from counter where id = $1', [1]);
          await client.query('update counter set n = $1 where id = 1', [current.rows[0].n + 1]);
          await client.query('commit');
        }
      });
      await Promise.all(work);
      const { rows } = await clients[0]!.query('select n from counter where id = 1');
      expect(rows[0].n).to.equal(120);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
      await owner.close();
    }
  });

  it('when a connection dies inside a transaction, then its transaction is rolled back and others go on', async () => {
    const owner = await openDatabase({ dataDir }, 'server');
    const survivor = clientFor(owner);
    await survivor.connect();
    try {
      await survivor.query('create table t (v int)');
      const doomed = clientFor(owner);
      doomed.on('error', () => {});
      await doomed.connect();
      await doomed.query('begin');
      await doomed.query('insert into t values ($1)', [1]);
      // Destroy the socket without COMMIT, as a crashed process would.
      (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      const { rows } = await survivor.query('select count(*)::int as n from t');
      expect(rows[0].n).to.equal(0);
    } finally {
      await survivor.end();
      await owner.close();
    }
  });

  it('when the owner stops, then the lock and socket are removed and the data persists for the next owner', async () => {
    const first = await openDatabase({ dataDir }, 'server');
    const client = clientFor(first);
    await client.connect();
    await client.query('create table kept (v text)');
    await client.query(`insert into kept values ('still here')`);
    await client.end();
    await first.close();
    expect(existsSync(join(dataDir, 'feedback.lock'))).to.equal(false);
    expect(existsSync(join(dataDir, '.s.PGSQL.5432'))).to.equal(false);

    const second = await openDatabase({ dataDir }, 'server');
    const again = clientFor(second);
    await again.connect();
    const { rows } = await again.query('select v from kept');
    expect(rows).to.deep.equal([{ v: 'still here' }]);
    await again.end();
    await second.close();
  });

  it('when a crashed owner left its lock and socket behind, then the next owner takes over', async () => {
    mkdirSync(dataDir, { recursive: true });
    // A pid far above pid_max on Linux is never alive.
    writeFileSync(join(dataDir, 'feedback.lock'), JSON.stringify({ pid: 2 ** 30, socket: { path: join(dataDir, '.s.PGSQL.5432') } }));
    writeFileSync(join(dataDir, '.s.PGSQL.5432'), 'stale');
    const owner = await openDatabase({ dataDir }, 'server');
    const client = clientFor(owner);
    await client.connect();
    const { rows } = await client.query('select 1 as one');
    expect(rows).to.deep.equal([{ one: 1 }]);
    await client.end();
    await owner.close();
  });
});
