import type { Server } from 'node:http';
import { baseUrl, createHttpServer, listen } from './http-server.js';
import type { Logger } from '../logger.js';
import { METRICS_PATH } from '../metrics/registry.js';

/** The Prometheus text format that prom-client writes (version 0.0.4). */
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics on a listener of their own (`--metrics-port`), never on the API's port: the API port
 * faces callers on the internet, the figures are for the operator's Prometheus. `GET /metrics`
 * answers the text format, anything else 404. `scrape` gives the text: this process's registry, or
 * the primary's sum over its workers.
 */
export async function startMetricsListener(options: { port: number; host: string; scrape: () => Promise<string>; logger: Logger }): Promise<MetricsListener> {
  // The API's HTTP server, with its default limits: what Node answers before the handler sees a
  // request (a URL over 16 KB, a malformed or too slow request) is the same JSON error as there.
  const server: Server = createHttpServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not found: the metrics are at GET ${METRICS_PATH}\n`);
      return;
    }
    options.scrape().then(
      (text) => response.writeHead(200, { 'content-type': CONTENT_TYPE }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        options.logger.warn('metrics scrape failed', { error: error instanceof Error ? error.message : String(error) });
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be gathered\n');
      },
    );
  });
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (error) {
    // Said apart from the API port's EADDRINUSE, which the CLI reports as --port's.
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot listen for metrics on ${options.host} port ${options.port} (${code ?? String(error)}); choose another --metrics-port`);
  }
  return {
    url: baseUrl(options.host, port),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Prometheus keeps its connection open between scrapes: close it rather than wait for it.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
