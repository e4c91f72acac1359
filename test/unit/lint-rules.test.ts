import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

async function restricted(code: string, filePath: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
}

describe('the state of invoices and bill runs changes only in core/domain', () => {
  const writes = [
    "run.state = 'completed';",
    "invoice.phase = 'complete';",
    "Object.assign(invoice, { state: 'paid', updatedAt: now });",
    "Object.assign(new Invoice(), { id, state: 'draft' } satisfies Invoice);",
  ];

  it.each(writes)('refuses `%s` outside core/domain', async (code) => {
    for (const file of ['core/billing/invoices/x.ts', 'core/payments/x.ts', 'rest/x.ts', 'graphql/x.ts']) expect(await restricted(code, file), file).toBe(1);
  });

  it.each(writes)('allows `%s` in core/domain', async (code) => {
    expect(await restricted(code, 'core/domain/billing/x.ts')).toBe(0);
  });

  it('lets reads and other objects be', async () => {
    expect(await restricted("if (run.state === 'created') send({ state: run.state });", 'core/billing/bill-runs/x.ts')).toBe(0);
  });
});
