import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { TEST_JWT_SECRET, TEST_WEBHOOK_KEY } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { startEbbs } from '../support/process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every ```sh block of the README after the install commands, in order, as one script. */
async function readmeScript(): Promise<string> {
  const readme = await readFile(new URL('README.md', `file://${ROOT}`), 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks.filter((block) => !/^npm ci\b/m.test(block)).join('\n');
}

/** Runs a script in bash with `set -e`, so the first failing command ends it. */
function bash(script: string, env: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the README', () => {
  it('runs as pasted, from the first account to an issued invoice and a webhook delivery', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    const env = { DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY, HOST: '127.0.0.1', QUEUE_POLL_SECONDS: '0.5' };
    const server = await startEbbs({ ...env, PORT: '0' });
    try {
      const port = new URL(server.url).port;
      const script = (await readmeScript()).replaceAll('localhost:3000', `localhost:${port}`);
      const run = await bash(script, env, 150_000);
      expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
      // The figures the README's comments promise.
      expect(run.stdout).toContain('"number":"INV-2026-000001"');
      expect(run.stdout).toMatch(/"state":"issued"[^\n]*"netTotal":"14\.48"[^\n]*"grossTotal":"17\.23"|"netTotal":"14\.48"[^\n]*"state":"issued"/);
      expect(run.stdout).toMatch(/"quantity":"?28\.8/);
      expect(run.stdout).toContain('"netAmount":"8.34"');
      expect(run.stdout).toContain('"netAmount":"6.14"');
      expect(run.stdout).toContain('"secret":"whsec_');
      expect(run.stdout).toContain('"eventType":"customer.updated"');
      expect((await readFile('/tmp/invoice.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      expect(run.stdout).toContain('"controlSum":"407.23"');
      expect(run.stderr).toContain('/tmp/pain.008.xml validates');
      expect(run.stdout).toMatch(/"number":"INV-2026-000001"[^\n]*"state":"paid"|"state":"paid"[^\n]*"number":"INV-2026-000001"/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await database.drop();
      await rm('/tmp/invoice.pdf', { force: true });
      await rm('/tmp/pain.008.xml', { force: true });
      await rm('/tmp/ebbs-day.json', { force: true });
    }
  }, 180_000);
});
