import { Counter, Gauge } from 'prom-client';
import type { PoolFigures } from '../db/pool.js';
import type { BatchFigures } from '../db/statement-batches.js';
import { recording, registry } from './registry.js';

/**
 * Figures read when Prometheus scrapes, not counted per request: the hot pool's connections and
 * queries, and the group-commit queues of votes and submissions. Sources are held weakly, so a pool
 * or an app dropped without a word (tests make many) is forgotten rather than kept alive.
 */
const pools = new Set<WeakRef<{ figures(): PoolFigures }>>();
const batches = new Map<WeakRef<{ figures(): BatchFigures }>, BatchKind>();

/** The group-commit queues: vote toggles and submissions. */
export type BatchKind = 'vote' | 'submit';
const KINDS: BatchKind[] = ['vote', 'submit'];

/** Reads `pool`'s figures at every scrape, until the returned function is called (when the pool closes). */
export function watchPool(pool: { figures(): PoolFigures }): () => void {
  if (!recording) return () => {};
  const ref = new WeakRef(pool);
  pools.add(ref);
  return () => pools.delete(ref);
}

/** Reads the queue figures of a group-commit batcher at every scrape (voteBatches in domain/votes/votes.ts, submitBatches in domain/feedback/submissions.ts). */
export function watchBatches(kind: BatchKind, source: { figures(): BatchFigures }): void {
  if (!recording) return;
  for (const ref of batches.keys()) if (!ref.deref()) batches.delete(ref);
  batches.set(new WeakRef(source), kind);
}

function poolSum(field: keyof PoolFigures): number {
  let sum = 0;
  for (const ref of pools) {
    const pool = ref.deref();
    if (pool) sum += pool.figures()[field];
    else pools.delete(ref);
  }
  return sum;
}

function batchSums(field: keyof BatchFigures): Map<BatchKind, number> {
  const sums = new Map<BatchKind, number>(KINDS.map((kind) => [kind, 0]));
  for (const [ref, kind] of batches) {
    const source = ref.deref();
    if (source) sums.set(kind, sums.get(kind)! + source.figures()[field]);
  }
  return sums;
}

const poolGauge = (name: string, help: string, field: keyof PoolFigures) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(poolSum(field));
    },
  });

poolGauge('feedback_db_pool_connections', 'Hot connections to the database open now', 'open');
poolGauge('feedback_db_pool_max_connections', 'Hot connections the pool opens at most', 'size');
poolGauge('feedback_db_pool_queries', 'Statements sent on the hot connections or waiting for one, not answered yet', 'queries');

new Gauge({
  name: 'feedback_batch_queue_waiting',
  help: 'Requests waiting to leave in the next group-commit statement, by batch (vote, submit)',
  labelNames: ['batch'],
  registers: [registry],
  collect() {
    for (const [kind, sum] of batchSums('waiting')) this.set({ batch: kind }, sum);
  },
});

new Gauge({
  name: 'feedback_batch_statements_running',
  help: 'Group-commit statements running now, by batch (vote, submit)',
  labelNames: ['batch'],
  registers: [registry],
  collect() {
    for (const [kind, sum] of batchSums('running')) this.set({ batch: kind }, sum);
  },
});

/** A total kept by the batcher itself, reported as a counter (prom-client counters only go up by `inc`). */
const batchCounter = (name: string, help: string, field: keyof BatchFigures) =>
  new Counter({
    name,
    help,
    labelNames: ['batch'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, sum] of batchSums(field)) this.inc({ batch: kind }, sum);
    },
  });

batchCounter('feedback_batch_statements_total', 'Group-commit statements sent, by batch (vote, submit)', 'statements');
batchCounter('feedback_batch_requests_total', 'Requests sent in group-commit statements, by batch: divided by the statements, the mean batch size', 'requests');

new Gauge({
  name: 'feedback_serving_processes',
  help: 'Processes serving the API whose figures this scrape holds: 1, or the workers of a cluster that answered',
  registers: [registry],
}).set(1);
