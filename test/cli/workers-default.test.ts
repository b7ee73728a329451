import { expect } from 'chai';
import { databaseOnThisMachine, defaultWorkers } from '@feedbackd/cli/testing';

describe('feedback serve: the default number of workers', () => {
  it('when the database is embedded, then one worker', () => {
    expect(defaultWorkers(undefined, 8)).to.equal(1);
  });

  it('when PostgreSQL runs on another machine, then one worker per core', () => {
    expect(defaultWorkers('postgres://app@db.internal:5432/feedback', 8)).to.equal(8);
    expect(defaultWorkers('postgres://app@10.0.0.7/feedback', 2)).to.equal(2);
    expect(defaultWorkers('postgres://app@db.internal/feedback', 1)).to.equal(1);
  });

  it('when PostgreSQL runs on this machine, then half the cores, at least one', () => {
    expect(defaultWorkers('postgres://postgres@127.0.0.1:5432/feedback', 2)).to.equal(1);
    expect(defaultWorkers('postgres://postgres@localhost/feedback', 8)).to.equal(4);
    expect(defaultWorkers('postgres://postgres@[::1]:5432/feedback', 5)).to.equal(2);
    expect(defaultWorkers('postgres://postgres@127.0.0.1/feedback', 1)).to.equal(1);
  });

  it('when the URL names a Unix socket or no host at all, then the database is on this machine', () => {
    expect(databaseOnThisMachine('postgres:///feedback')).to.equal(true);
    expect(databaseOnThisMachine('postgres://postgres@/feedback?host=/var/run/postgresql')).to.equal(true);
    expect(databaseOnThisMachine('postgresql://postgres@localhost:5433/feedback')).to.equal(true);
    expect(databaseOnThisMachine('postgres://postgres@127.1.2.3/feedback')).to.equal(true);
  });

  it('when the host is another machine or the text is not a URL, then it is not on this machine', () => {
    expect(databaseOnThisMachine('postgres://app@db.example.com/feedback')).to.equal(false);
    expect(databaseOnThisMachine('postgres://app@192.168.1.20/feedback')).to.equal(false);
    expect(databaseOnThisMachine('postgres://app@localhost.example.com/feedback')).to.equal(false);
    expect(databaseOnThisMachine('host=db user=app')).to.equal(false);
  });
});
