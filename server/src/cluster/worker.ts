import cluster from 'node:cluster';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../db/orm.js';
import { workerLimiter } from '../limits/cluster-link.js';
import { createLogger, type Logger } from '../logger.js';
import { serveProcess } from '../serve/serve-process.js';
import { workerWakeups } from './webhook-wakeups.js';
import { isLifecycleMessage, WORKER_CONFIG_VARIABLE, type LifecycleMessage, type WorkerConfig } from './worker-config.js';

/**
 * A cluster worker: config -> the serving process (pool, app, listen: the port is shared by every
 * worker through node:cluster) -> serve until the primary says shutdown, or goes away.
 */
async function runWorker(): Promise<void> {
  const config = JSON.parse(process.env[WORKER_CONFIG_VARIABLE] ?? 'null') as WorkerConfig | null;
  if (!config || !process.send) throw new Error('a feedback worker is started by `feedback serve --workers N`, not directly');
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs });
  // A message to a primary that is already gone (a shutdown racing this worker's start, even its
  // listen) fails with EPIPE on the cluster worker object; unhandled, it would crash the worker
  // instead of letting the disconnect handler below drain it.
  cluster.worker?.on('error', (error: Error) => logger.debug('message to the primary failed', { error: error.message }));
  const orm = adminOrm(config, logger);
  const serving = await serveProcess(config, {
    logger,
    orm: orm.open,
    // The machine's bank (in the primary) counts alone, or stands in for Redis while it is out.
    machineLimiter: workerLimiter,
    metrics: config.metrics ? 'to the primary' : undefined,
    // The primary runs them, once for the machine.
    machineJobs: false,
    // On the embedded database, waiting webhook pulls hear the other workers' changes through the primary.
    peers: workerWakeups,
  });
  logger.debug('worker listening', { url: serving.url });
  process.send({ lifecycle: 'ready', port: serving.port } satisfies LifecycleMessage);

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.debug('worker draining', { reason });
    // The worker exits next whatever fails in closing: a failure must not keep it from exiting.
    await serving.close().catch(() => {});
    await orm.close();
    logger.flush?.();
    process.exit(0);
  };
  process.on('message', (message: unknown) => {
    if (isLifecycleMessage(message) && message.lifecycle === 'shutdown') void stop('shutdown');
  });
  // The primary is gone (killed): nobody hands out rate limits or restarts us, so finish and exit.
  process.on('disconnect', () => void stop('primary gone'));
  // Ctrl-C reaches the whole process group: the primary decides when workers stop.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
}

/**
 * The ORM serves the operator's endpoints and the transactions of writes sent with an
 * Idempotency-Key (every SDK write). It is opened by the first such request, not at every start
 * (its pool keeps no idle connection). A failed open is forgotten, so the next request retries.
 */
function adminOrm(config: WorkerConfig, logger: Logger): { open: () => Promise<MikroORM>; close: () => Promise<void> } {
  let orm: Promise<MikroORM> | undefined;
  return {
    open: () => {
      if (!orm) {
        const opening = openOrm({ connection: config.database.connection, poolMax: config.database.kind === 'embedded' ? 1 : 4 }, { log: (message) => logger.debug(message) });
        orm = opening;
        opening.catch(() => {
          if (orm === opening) orm = undefined;
        });
      }
      return orm;
    },
    close: async () => {
      await orm?.then((opened) => opened.close()).catch(() => {});
    },
  };
}

runWorker().catch((error: unknown) => {
  process.stderr.write(`feedback worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
