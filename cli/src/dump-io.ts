import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { DumpCounts } from '@feedbackd/server';
import { CliError, EXIT } from './exit-codes.js';
import { exactOutput, type Output } from './output.js';

/** Where `feedback export` writes its dump, chunk by chunk. */
export interface DumpSink {
  /** Resolves once the stream can take more (backpressure): the export never runs ahead of the disk or the pipe. */
  write(chunk: string): Promise<void>;
  /** The dump is complete. */
  finish(): Promise<void>;
  /** The export failed: nothing of it must look like a dump. */
  abort(): Promise<void>;
}

/** A stream we do not own (stdout): written with backpressure, never closed. */
export function streamSink(stream: Writable): DumpSink {
  return {
    write: async (chunk) => {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    finish: async () => {},
    abort: async () => {},
  };
}

/** The dump through an Output (tests that run the CLI in this process). */
export function outputSink(output: Output): DumpSink {
  return { write: async (chunk) => exactOutput(output).out(chunk), finish: async () => {}, abort: async () => {} };
}

/**
 * A file, written under a temporary name beside it and renamed once complete: an export that
 * fails midway leaves no partial dump under the name asked for, and an existing file there is
 * replaced only by a whole dump.
 */
export async function fileSink(path: string): Promise<DumpSink> {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  // 0600: a dump holds every end user's email and name (docs/transfer.md); only its owner reads it.
  const stream = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
  let failed: Error | undefined;
  // One listener for the stream's life; a wait for an event ends early when the stream fails.
  let wake: (() => void) | undefined;
  stream.on('error', (error) => {
    failed ??= error;
    wake?.();
  });
  const until = (event: 'open' | 'drain' | 'finish') => {
    let done: () => void = () => {};
    return new Promise<void>((resolve) => {
      done = resolve;
      wake = resolve;
      stream.once(event, resolve);
    }).finally(() => {
      wake = undefined;
      stream.removeListener(event, done);
    });
  };
  const check = () => {
    if (failed) throw new CliError(`cannot write ${path}: ${failed.message}`, EXIT.error);
  };
  await until('open');
  check();
  return {
    write: async (chunk) => {
      check();
      if (!stream.write(chunk)) await until('drain');
      check();
    },
    finish: async () => {
      const finished = until('finish');
      stream.end();
      await finished;
      check();
      await rename(partial, path);
    },
    abort: async () => {
      stream.destroy();
      await rm(partial, { force: true });
    },
  };
}

const NAMES: Record<keyof DumpCounts, [one: string, many: string]> = {
  project: ['project', 'projects'],
  user: ['user', 'users'],
  item: ['item', 'items'],
  vote: ['vote', 'votes'],
  comment: ['comment', 'comments'],
  commentRevision: ['comment revision', 'comment revisions'],
  statusChange: ['status change', 'status changes'],
  changelogEntry: ['changelog entry', 'changelog entries'],
  changelogLink: ['changelog link', 'changelog links'],
  subscription: ['subscription', 'subscriptions'],
  heldPost: ['held post', 'held posts'],
  postingBlock: ['posting block', 'posting blocks'],
};

/** "1 project, 2500 users, …, 3 status changes". */
export function describeCounts(counts: DumpCounts): string {
  return (Object.keys(NAMES) as (keyof DumpCounts)[]).map((type) => `${counts[type]} ${NAMES[type][counts[type] === 1 ? 0 : 1]}`).join(', ');
}

/** The export time of a dump: now, or the reproducible-build convention's SOURCE_DATE_EPOCH (seconds) when it is set. */
export function exportTime(environment: NodeJS.ProcessEnv = process.env): Date {
  const text = environment.SOURCE_DATE_EPOCH?.trim();
  if (!text) return new Date();
  if (!/^\d{1,12}$/.test(text)) throw new CliError(`SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, not "${text}"`, EXIT.usage);
  return new Date(Number(text) * 1000);
}
