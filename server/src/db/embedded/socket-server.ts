import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import type { SocketAddress } from './lock-file.js';
import { SessionScheduler } from './session-scheduler.js';

/**
 * Serves one PGlite to PostgreSQL clients (node-postgres, psql) over a unix socket or TCP.
 * Framing and the startup handshake come from pglite-socket's handler; which connection talks to
 * the single PGlite session next is decided by our SessionScheduler.
 */
export class EmbeddedSocketServer {
  private readonly scheduler: SessionScheduler;
  private readonly handlers = new Set<PGLiteSocketHandler>();
  private server: Server | undefined;
  private unixPath: string | undefined;

  constructor(
    db: PGlite,
    private readonly maxConnections: number,
  ) {
    this.scheduler = new SessionScheduler(db);
  }

  async listen(address: SocketAddress): Promise<SocketAddress> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if ('path' in address) {
        // Only the lock holder gets here, so a socket file left at this path is from a crashed owner.
        rmSync(address.path, { force: true });
        server.listen(address.path, resolve);
      } else {
        server.listen(address.port, address.host, resolve);
      }
    });
    if ('path' in address) {
      this.unixPath = address.path;
      chmodSync(address.path, 0o600);
      return address;
    }
    const bound = server.address();
    if (bound === null || typeof bound === 'string') throw new Error('embedded database socket did not bind to a TCP port');
    return { host: address.host, port: bound.port };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([...this.handlers].map((handler) => handler.detach(true)));
    this.handlers.clear();
    await closed;
    if (this.unixPath) rmSync(this.unixPath, { force: true });
  }

  private accept(socket: Socket): void {
    if (this.handlers.size >= this.maxConnections) {
      socket.destroy();
      return;
    }
    const handler = new PGLiteSocketHandler({
      // The handler only calls enqueue, clearQueueForHandler and clearTransactionIfNeeded, which
      // SessionScheduler implements; the declared type is pglite-socket's unexported queue class.
      queryQueue: this.scheduler as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    this.handlers.add(handler);
    const forget = () => this.handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  }
}
