import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The figures of this serving process (requests, limits, pool, batches, process), one registry per
 * process: the single `serve` process scrapes it itself, a cluster worker sends it to the primary,
 * which sums the workers' (cluster.ts). A process that serves several apps (tests) counts them together.
 */
export const registry = new Registry();

/**
 * Where the figures are served: on the metrics listener's own port (serve/metrics-listener.ts),
 * never on the API's, where this path is a keyless 404 (http/keyless-routes.ts).
 */
export const METRICS_PATH = '/metrics';

/**
 * Whether this process records: false until `enableMetrics()`, so that a server started without
 * `--metrics-port` pays one boolean test per request and nothing else.
 */
export let recording = false;

/** Turns recording on in this process, with the event-loop and process figures (idempotent). */
export function enableMetrics(): void {
  if (recording) return;
  recording = true;
  addProcessFigures(registry);
}

/**
 * prom-client's default figures (CPU, memory, file descriptors, event-loop delay, heap, GC), minus
 * the three gauges named `*_total`: `promtool check metrics` refuses that suffix on a gauge, and
 * each only repeats the sum of its namesake without `_total` (`nodejs_active_handles` by type).
 */
export function addProcessFigures(target: Registry): void {
  collectDefaultMetrics({ register: target });
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) target.removeSingleMetric(name);
}
