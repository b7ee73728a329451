import { spawn, spawnSync } from 'node:child_process';

/** One sample line of the Prometheus text format: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    found.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return found;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** The label values `label` takes among the samples of `name`. */
export function labelValues(text: string, name: string, label: string): string[] {
  return [...new Set(samples(text).filter((sample) => sample.name === name && label in sample.labels).map((sample) => sample.labels[label]!))];
}

/** GET /metrics of a metrics listener: the text, after checking the answer's status and type. */
export async function scrape(metricsUrl: string): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`);
  const text = await response.text();
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/plain')) throw new Error(`scrape answered ${response.status}: ${text}`);
  return text;
}

/** Whether Prometheus's `promtool` is on the PATH (CI installs it, see .ci/run). */
export function hasPromtool(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** `promtool check metrics` on `text`: its exit code and what it printed (the problems it found). */
export function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}
