/**
 * HTTP load for the bench: autocannon as a library in the bench's process (the target runs in
 * another one), alternating rounds of two targets, and the bare Express baseline in its own child
 * process (bare-express.ts). A round that saw any error, timeout, non-2xx answer or rejected body
 * throws: a bench that measures errors is worthless.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface LoadOptions {
  /** Origin of the target, e.g. http://127.0.0.1:4000 */
  baseUrl: string;
  connections: number;
  seconds: number;
  /** One request, sent over and over on every connection... */
  request?: { method?: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };
  /** ...or a sequence each connection goes through in turn (e.g. the requests of one page). */
  sequence?: autocannon.Request[];
  /** Headers of every request (a sequence's requests add theirs). */
  headers?: Record<string, string>;
  /** Requests one unit of work takes (a page of a sequence): the rate is completed requests / this per second. Default 1. */
  requestsPerUnit?: number;
  /** A cheap test of every response body (e.g. no GraphQL `errors`); one that fails fails the round. */
  verifyBody?: (body: string) => boolean;
  /** The median of every response's time as autocannon measured it (to the µs), not of its histogram (whole ms). */
  exactLatency?: boolean;
  /** The target's process id, to report the share of a core it used. */
  targetPid?: number;
}

export interface LoadResult {
  /** Units (requests, or pages of requestsPerUnit) per second. */
  perSecond: number;
  requests: number;
  seconds: number;
  /** The median latency of one request, ms: autocannon's (whole ms), or of its per-response times with exactLatency. */
  p50Ms: number;
  /** Share of one core this process (the load generator) used, 0..1 per core. */
  loadCpu: number;
  /** Share of one core the target process used, when its pid is known. */
  targetCpu: number | null;
  /** Cores the whole machine kept busy (every process: PostgreSQL and other users' work too). */
  machineCpu: number | null;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null where it cannot be read. */
function cpuSecondsOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat; null where it cannot be read. */
function machineSeconds(): number | null {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = ticks[3]! + ticks[4]!;
    return (ticks.reduce((sum, value) => sum + value, 0) - idle) / 100;
  } catch {
    return null;
  }
}

/** One round of load; throws when any request failed. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const request = options.request;
  const cpuBefore = process.cpuUsage();
  const targetBefore = options.targetPid ? cpuSecondsOf(options.targetPid) : null;
  const machineBefore = machineSeconds();
  const started = process.hrtime.bigint();
  // Every response's own time (float ms), where asked: autocannon's histogram keeps whole milliseconds.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${options.baseUrl}${request?.path ?? '/'}`,
        connections: options.connections,
        duration: options.seconds,
        method: request?.method ?? 'GET',
        headers: { ...options.headers, ...request?.headers },
        ...(request?.body !== undefined ? { body: request.body } : {}),
        ...(options.sequence ? { requests: options.sequence } : {}),
        ...(options.verifyBody ? { verifyBody: options.verifyBody as (body: unknown) => boolean } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (options.exactLatency) instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const targetAfter = options.targetPid ? cpuSecondsOf(options.targetPid) : null;
  const machineAfter = machineSeconds();
  const failed = result.errors + result.timeouts + result.non2xx + result.mismatches;
  if (failed > 0 || result.requests.total === 0) {
    throw new Error(
      `load on ${result.url}: ${result.requests.total} answers, ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx, ${result.mismatches} rejected bodies; statuses ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  return {
    perSecond: result.requests.total / (options.requestsPerUnit ?? 1) / result.duration,
    requests: result.requests.total,
    seconds: result.duration,
    p50Ms: options.exactLatency ? median(times) : result.latency.p50,
    loadCpu: (cpu.user + cpu.system) / 1e6 / wall,
    targetCpu: targetBefore !== null && targetAfter !== null ? (targetAfter - targetBefore) / wall : null,
    machineCpu: machineBefore !== null && machineAfter !== null ? (machineAfter - machineBefore) / wall : null,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const percent = (share: number | null) => (share === null ? '?' : `${Math.round(share * 100)}%`);

/**
 * `rounds` rounds of each target, alternating and in turned order every round (a b, b a, a b...)
 * so that drift cancels; each round's rate and CPU shares go to stderr. The median rate of each.
 */
export async function alternate<K extends string>(label: string, targets: Record<K, () => Promise<LoadResult>>, rounds: number): Promise<Record<K, number>> {
  const names = Object.keys(targets) as K[];
  const rates = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const result = await targets[name]();
      rates[name].push(result.perSecond);
      console.error(
        `${label} round ${round + 1} ${name}: ${result.perSecond.toFixed(1)}/s (${result.requests} requests in ${result.seconds} s, p50 ${result.p50Ms} ms); ` +
          `CPU of a core: load generator ${percent(result.loadCpu)}, target ${percent(result.targetCpu)}, whole machine ${percent(result.machineCpu)} (of ${availableParallelism()} cores)`,
      );
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(rates[name])])) as Record<K, number>;
}

export interface BareExpress {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** bare-express.ts in its own process (`node --import tsx`), answering `body` to GET /v1/sites/:id. */
export async function startBareExpress(body: string): Promise<BareExpress> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./bare-express.ts', import.meta.url))], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, BENCH_BODY: body },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`bare Express exited with ${code}: ${output}`)));
  });
  return { baseUrl, pid: child.pid!, stop: () => new Promise((resolve) => (child.on('exit', () => resolve()), child.kill('SIGTERM'))) };
}
