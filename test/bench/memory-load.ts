import { Pool } from 'undici';

/*
 * The memory bench's load: the side-by-side benchmark's 70/30 mix of the v1 API, from this process
 * over `connections` kept-alive connections. Reads: list newest 20 %, filtered by status and type
 * and sorted by votes 10 %, a search for a word in 1 % of the items 10 %, page 50 5 %, the detail of
 * a random item for a random end user 25 %. Writes: a vote toggle by one of 200 identified end users
 * on a 500-item hot set 20 %, a submission (80 % identified) 10 %. Its figures show that the load
 * ran; they are not the server's speed (the driver shares the machine with it).
 */

export interface MixResult {
  requests: number;
  non2xx: number;
  seconds: number;
}

interface MixOptions {
  base: string;
  key: string;
  /** The seed's end users are seed-1-user-1 .. seed-1-user-<userPool>. */
  userPool: number;
  durationS: number;
  connections: number;
  progress(text: string): void;
}

/** The seed's word in 1 % of the items (`feedback seed --search-markers`). */
const SEARCH_WORD = 'axolotl';
const WORDS = ['export', 'dashboard', 'slow', 'login', 'dark', 'mode', 'invoice', 'search', 'mobile', 'report', 'filter', 'team', 'sync', 'crash', 'email'];
const TYPES = ['bug', 'idea', 'idea', 'question', 'other'];

export async function runMix(options: MixOptions): Promise<MixResult> {
  const pool = new Pool(options.base, { connections: options.connections, pipelining: 1 });
  const headers = { 'x-api-key': options.key, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: () => Promise<any> }> => {
    const answer = await pool.request({ method, path: `/api/v1${path}`, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.statusCode, json: () => answer.body.json() };
  };
  const ids = async (query: string, pages: number): Promise<string[]> => {
    const found: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const answer = await call('GET', `/feedback?${query}&limit=100&page=${page}`);
      found.push(...((await answer.json()).items as Array<{ id: string }>).map((item) => item.id));
    }
    return found;
  };
  const hotSet = await ids('sortBy=votes', 5);
  const details = [...(await ids('sortBy=newest', 10)), ...(await ids('sortBy=oldest', 10))];
  const users = Array.from({ length: 200 }, (_, i) => `seed-1-user-${1 + ((i * 97) % options.userPool)}`);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
  const words = (min: number, max: number) => Array.from({ length: min + Math.floor(Math.random() * (max - min + 1)) }, () => pick(WORDS)).join(' ');

  const next = (): [method: 'GET' | 'POST', path: string, body?: unknown] => {
    const r = Math.random() * 100;
    if (r < 20) return ['GET', '/feedback?page=1&limit=20&sortBy=newest'];
    if (r < 30) return ['GET', '/feedback?status=planned,in-progress&type=bug,idea&sortBy=votes'];
    if (r < 40) return ['GET', `/feedback?search=${SEARCH_WORD}`];
    if (r < 45) return ['GET', '/feedback?page=50&limit=20'];
    if (r < 70) return ['GET', `/feedback/${pick(details)}?endUserId=${pick(users)}`];
    if (r < 90) return ['POST', `/feedback/${pick(hotSet)}/vote`, { endUser: { externalId: pick(users) } }];
    const user = pick(users);
    const identified = Math.random() < 0.8 ? { endUser: { externalId: user, name: `Load ${user}` } } : {};
    return ['POST', '/feedback', { title: words(4, 9), description: words(10, 40), type: pick(TYPES), ...identified }];
  };

  let requests = 0;
  let non2xx = 0;
  const started = performance.now();
  const stopAt = started + options.durationS * 1000;
  const ticker = setInterval(() => options.progress(`${Math.round((performance.now() - started) / 1000)} s, ${requests} requests`), 10_000);
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < stopAt) {
          const answer = await pool.request({ ...request(next()), headers });
          await answer.body.dump();
          requests++;
          if (answer.statusCode < 200 || answer.statusCode > 299) non2xx++;
        }
      }),
    );
  } finally {
    clearInterval(ticker);
    await pool.close();
  }
  return { requests, non2xx, seconds: (performance.now() - started) / 1000 };
}

function request([method, path, body]: [string, string, unknown?]): { method: 'GET' | 'POST'; path: string; body?: string } {
  return { method: method as 'GET' | 'POST', path: `/api/v1${path}`, body: body === undefined ? undefined : JSON.stringify(body) };
}
