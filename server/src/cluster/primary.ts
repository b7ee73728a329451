import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { startBackgroundJobs } from '../jobs/background-jobs.js';
import { PrimaryLimits } from '../limits/cluster-link.js';
import { createLogger, type LogLevel } from '../logger.js';
import { clusterScrape } from '../metrics/cluster.js';
import { startMetricsListener, type MetricsListener } from '../serve/metrics-listener.js';
import { RATE_LIMIT_WINDOW_SECONDS } from '../serve-defaults.js';
import { baseUrl } from '../serve/http-server.js';
import { prepareDatabase } from '../serve/prepare-database.js';
import { logListening, machineJobOptions, processSettings, type ServeOptions } from '../serve/serve-options.js';
import { isLifecycleMessage, WORKER_CONFIG_VARIABLE, type LifecycleMessage, type WorkerConfig } from './worker-config.js';
import { isWakeupMessage, tellWorkers } from './webhook-wakeups.js';

export interface ClusterOptions extends ServeOptions {
  /** Serving processes to fork (at least 1). */
  workers: number;
  logLevel?: LogLevel;
}

export interface RunningCluster {
  url: string;
  port: number;
  workers: number;
  /** Where the metrics of every worker, summed, are served (--metrics-port): http://host:port. */
  metricsUrl?: string;
  /** Drains every worker (in-flight requests finish), then closes the database. */
  close(): Promise<void>;
}

/** A worker that dies this soon after starting is failing, not crashing now and then: do not respawn it forever. */
const EARLY_DEATH_MS = 5_000;
const MAX_EARLY_DEATHS = 5;

/**
 * `feedback serve --workers N`: this process (the primary) owns the database, applies migrations,
 * mints the first key, keeps the machine's rate-limit bank, and forks N workers that serve HTTP on
 * one shared port. A worker that crashes is replaced; SIGTERM (close) drains them all.
 */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const logger = options.logger ?? createLogger({ level: options.logLevel });
  const { database, orm, voterSecret } = await prepareDatabase(options, logger);
  // The primary serves no requests: the ORM's work (migrations, first key) is done.
  await orm.close();
  const config: WorkerConfig = {
    // Each worker serves from the settings a single process gives itself, its share of the hot pool included.
    ...processSettings(options, database, options.workers, voterSecret),
    logLevel: options.logLevel ?? 'info',
    prettyLogs: process.stderr.isTTY === true,
    metrics: options.metricsPort !== undefined,
  };
  const limits = config.rateLimit === 'off' ? undefined : new PrimaryLimits(config.rateLimit, RATE_LIMIT_WINDOW_SECONDS);
  cluster.setupPrimary({ exec: fileURLToPath(new URL('./worker.js', import.meta.url)), args: [] });

  let stopping = false;
  let earlyDeaths = 0;
  let port = options.port;
  const fork = (): Promise<Worker> => {
    // Every worker listens on the same port value: node:cluster shares one socket per value, and
    // with port 0 all of them (respawns included) get the one port the first was given.
    const worker = cluster.fork({ [WORKER_CONFIG_VARIABLE]: JSON.stringify(config) });
    limits?.attach(worker);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: unknown) => {
        // A change that waiting webhook pulls may want, made in this worker: the others hear of it.
        if (isWakeupMessage(message) && message.webhookWakeup === 'changed') tellWorkers(worker);
        if (isLifecycleMessage(message) && message.lifecycle === 'ready') {
          ready = true;
          port = message.port;
          resolve(worker);
        }
      });
      worker.once('exit', (code, signal) => {
        // A worker that dies before it listens fails its fork() (and so the start, or the respawn).
        if (!ready) return reject(new Error(`worker ${worker.id} exited while starting (${signal ?? `code ${code}`})`));
        if (stopping) return;
        const early = Date.now() - started < EARLY_DEATH_MS;
        earlyDeaths = early ? earlyDeaths + 1 : 0;
        logger.error('worker exited; starting another', { worker: worker.id, workerPid: worker.process.pid, code, signal: signal ?? undefined });
        if (earlyDeaths >= MAX_EARLY_DEATHS) {
          logger.error('workers keep dying right after they start; giving up on respawning', { deaths: earlyDeaths });
          return;
        }
        fork().catch((error: unknown) => logger.error('could not start a worker', { error: String(error) }));
      });
    });
  };

  let metrics: MetricsListener | undefined;
  try {
    // One first, so that port 0 is settled before the others listen.
    await fork();
    await Promise.all(Array.from({ length: options.workers - 1 }, fork));
    // The primary serves the metrics, summed over the workers: one port, whichever worker is busy.
    if (options.metricsPort !== undefined) metrics = await startMetricsListener({ port: options.metricsPort, host: options.host, scrape: clusterScrape(), logger });
  } catch (error) {
    stopping = true;
    await stopWorkers(1_000);
    await database.close().catch(() => {});
    throw error;
  }
  const url = baseUrl(options.host, port);
  // The machine's periodic jobs run here, once, in a thread of the primary's own.
  // What its jobs write for waiting webhook pulls (a fan-out, an announcement), every worker hears of.
  const jobs = startBackgroundJobs(database, logger, machineJobOptions(config, url), () => tellWorkers());
  logListening(logger, config, { url, metricsUrl: metrics?.url, workers: options.workers });

  return {
    url,
    port,
    workers: options.workers,
    metricsUrl: metrics?.url,
    close: async () => {
      stopping = true;
      logger.info('shutting down: workers stop accepting and finish their requests in flight');
      await metrics?.close();
      await stopWorkers(config.drainTimeoutMs + 1_000);
      await jobs.stop();
      await database.close();
      logger.info('stopped');
      logger.flush?.();
    },
  };
}

/** Asks every worker to drain and waits for them to exit; past `deadlineMs` they are killed. */
async function stopWorkers(deadlineMs: number): Promise<void> {
  const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          const timer = setTimeout(() => worker.process.kill('SIGKILL'), deadlineMs);
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          // A worker already cut off from the primary drains and exits on its own (see worker.ts).
          if (worker.isConnected()) worker.send({ lifecycle: 'shutdown' } satisfies LifecycleMessage);
        }),
    ),
  );
}
