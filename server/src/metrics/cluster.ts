import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';
import { addProcessFigures, registry } from './registry.js';

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/**
 * The IPC messages of a scrape: the primary asks every worker, each answers its registry as JSON.
 * Their key `metrics` keeps them apart from the lifecycle's (`lifecycle`, worker-config.ts) and the
 * rate limiter's (`rateLimit`, limits/cluster-link.ts), which ignore any other message.
 */
type MetricsMessage = { metrics: 'ask'; id: number } | { metrics: 'answer'; id: number; figures: MetricsJson };

function isMetricsMessage(message: unknown): message is MetricsMessage {
  return typeof message === 'object' && message !== null && typeof (message as { metrics?: unknown }).metrics === 'string';
}

/** A worker busy past this is left out of the scrape rather than holding Prometheus up (its scrape timeout is 10 s by default). */
const WORKER_ANSWER_MS = 2_000;

/** In a worker: answer the primary's scrapes with this process's figures. */
export function answerScrapes(): void {
  process.on('message', (message: unknown) => {
    if (!isMetricsMessage(message) || message.metrics !== 'ask') return;
    void registry.getMetricsAsJSON().then((figures) => {
      if (process.connected) process.send?.({ metrics: 'answer', id: message.id, figures } satisfies MetricsMessage);
    });
  });
}

/**
 * In the primary: one scrape of the whole `serve`. Every connected worker is asked; the answers
 * that arrive within WORKER_ANSWER_MS, and the primary's own process figures, are merged by
 * prom-client's AggregatorRegistry: counters, histograms and most gauges are summed, the event-loop
 * delay is averaged (its max is the max), the Node version is the first. prom-client's own cluster
 * messages are not used: they fail the whole scrape when one worker does not answer.
 */
export function clusterScrape(): () => Promise<string> {
  const own = new Registry();
  addProcessFigures(own);
  const waiting = new Map<number, (figures: MetricsJson) => void>();
  let nextId = 0;
  cluster.on('message', (_worker, message: unknown) => {
    if (isMetricsMessage(message) && message.metrics === 'answer') waiting.get(message.id)?.(message.figures);
  });

  const ask = (worker: NonNullable<typeof cluster.workers>[number]): Promise<MetricsJson | undefined> =>
    new Promise((resolve) => {
      const id = ++nextId;
      const done = (figures: MetricsJson | undefined) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(figures);
      };
      const timer = setTimeout(() => done(undefined), WORKER_ANSWER_MS);
      waiting.set(id, done);
      worker?.send({ metrics: 'ask', id } satisfies MetricsMessage, (error: Error | null) => {
        if (error) done(undefined);
      });
    });

  return async () => {
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
    const answers = await Promise.all(workers.map(ask));
    const figures = [await own.getMetricsAsJSON(), ...answers.filter((answer): answer is MetricsJson => answer !== undefined)];
    return AggregatorRegistry.aggregate(figures).metrics();
  };
}
