import cluster, { type Worker } from 'node:cluster';
import type { WakeupRelay } from '../delivery/webhooks/wake-ups.js';

/**
 * Wake-ups of waiting webhook pulls between the processes of a cluster on the embedded database
 * (delivery/webhooks/wake-ups.ts): a worker tells its primary of a change (`changed`), and the primary tells
 * every other worker (`heard`), as it does the changes of its jobs' thread. On PostgreSQL the
 * processes also use NOTIFY and LISTEN (delivery/webhooks/postgres-wake-ups.ts), which reach other machines,
 * and the channel stays: the primary's jobs (the sender's fan-out) are told through it alone.
 */
export type WakeupMessage = { webhookWakeup: 'changed' | 'heard' };

export function isWakeupMessage(message: unknown): message is WakeupMessage {
  return typeof message === 'object' && message !== null && typeof (message as { webhookWakeup?: unknown }).webhookWakeup === 'string';
}

/** A worker's side: tells the primary, and hears what the primary relays. */
export function workerWakeups(heard: () => void): WakeupRelay {
  const onMessage = (message: unknown) => {
    if (isWakeupMessage(message) && message.webhookWakeup === 'heard') heard();
  };
  process.on('message', onMessage);
  return {
    tell() {
      // A primary already gone: the worker drains and exits anyway (cluster/worker.ts).
      if (process.connected) process.send?.({ webhookWakeup: 'changed' } satisfies WakeupMessage, undefined, undefined, () => {});
    },
    async close() {
      process.off('message', onMessage);
    },
  };
}

/** The primary's side: tells every worker but `from` (the one whose change it is, if any). */
export function tellWorkers(from?: Worker): void {
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker && worker !== from && worker.isConnected()) worker.send({ webhookWakeup: 'heard' } satisfies WakeupMessage, undefined, () => {});
  }
}
