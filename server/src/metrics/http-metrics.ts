import type { ParameterizedContext } from 'koa';
import { Counter, Histogram } from 'prom-client';
import { registry } from './registry.js';

const LABELS = ['method', 'route', 'status'] as const;

const requests = new Counter({
  name: 'feedback_http_requests_total',
  help: 'HTTP requests answered by the API, by method, route template and status',
  labelNames: LABELS,
  registers: [registry],
});

const durations = new Histogram({
  name: 'feedback_http_request_duration_seconds',
  help: 'Time from a request reaching the app to its response, by method, route template and status',
  labelNames: LABELS,
  // The hot endpoints answer in 1 to 10 ms on a healthy machine: the low buckets tell those apart.
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** A request that no route matched, or that was answered before routing (401, 429, 413, 415): one label value, never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

interface Children {
  count: Counter.Internal;
  time: Histogram.Internal<(typeof LABELS)[number]>;
}

/**
 * The labelled series by method, route and status. prom-client hashes the labels on every call;
 * the set is bounded (the route templates, the methods Node parses, the statuses the app answers),
 * so each series is looked up once and then found by one string key.
 */
const series = new Map<string, Children>();

/**
 * Counts one answered request and its time: the HTTP edge (http/edge.ts) calls it for every request
 * while metrics are recorded. The route is the template a router matched (the keyless paths' own
 * router included), so a label never holds a raw path.
 */
export function recordRequest(ctx: ParameterizedContext, seconds: number): void {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  const route = typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
  const key = `${ctx.method} ${route} ${ctx.status}`;
  let children = series.get(key);
  if (!children) {
    const labels = { method: ctx.method, route, status: String(ctx.status) };
    children = { count: requests.labels(labels), time: durations.labels(labels) };
    series.set(key, children);
  }
  children.count.inc();
  children.time.observe(seconds);
}
