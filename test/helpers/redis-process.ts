import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A redis-server that a test started itself (on a free port, keeping nothing on disk), to stop and start at will. */
export interface RedisProcess {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: an outage, not a shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that holds connections open and answers nothing. */
  freeze(): void;
  thaw(): void;
}

/** Whether `redis-server` can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child.on('error', () => {}); // a failed start shows as a port that never opens, below
    for (let i = 0; i < 100; i++) {
      if (await accepts(port)) return;
      await sleep(50);
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((done) => running.once('exit', done));
      running.kill('SIGCONT');
      running.kill('SIGKILL');
      await exited;
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
  };
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
