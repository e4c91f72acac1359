import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The service's entry point as its own process, as `npm start` / `npm run cli` run it — with
 * NODE_ENV=production, not vitest's `test`, because libraries behave differently under `test`
 * (Apollo installs its own SIGTERM handler outside of it). Its render threads start without warming
 * up (a second or more of CPU each, while other files' tests run), unless `env` asks for it.
 */
export function spawnEbbs(args: string[], env: Record<string, string>): ChildProcess {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY'].includes(key)));
  return spawn(process.execPath, ['--import', 'tsx', 'app/main.ts', ...args], {
    cwd: ROOT,
    env: { ...base, NODE_ENV: 'production', LOG_LEVEL: 'warn', PDF_RENDER_WARMUP_DOCUMENTS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function runEbbs(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnEbbs(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

/** Resolves with the URL a starting server prints, and everything it printed up to then. */
export function listening(child: ChildProcess, exited: Promise<number | null>): Promise<{ url: string; output: string }> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve({ url: match[1]!, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** Starts `serve` and resolves with its URL once it prints where it listens. */
export async function startEbbs(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawnEbbs(['serve'], env);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const { url } = await listening(child, exited);
  return { url, child, exited };
}

/** What a spawned process wrote (stdout and stderr, as they came) and how it ends. */
export interface Watched {
  output(): string;
  exited: Promise<number | null>;
  /** Resolves once the process has written `text`; rejects with its output if it exits or `timeoutMs` passes first. */
  printed(text: string, timeoutMs?: number): Promise<void>;
}

export function watch(child: ChildProcess): Watched {
  let output = '';
  const waiting = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiting) check();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const printed = (text: string, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        waiting.delete(check);
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const check = () => void (output.includes(text) && done());
      const timer = setTimeout(() => done(new Error(`"${text}" not printed within ${timeoutMs} ms: ${output}`)), timeoutMs);
      waiting.add(check);
      void exited.then((code) => done(new Error(`exited with ${code} before printing "${text}": ${output}`)));
      check();
    });
  return { output: () => output, exited, printed };
}
