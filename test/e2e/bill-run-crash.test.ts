import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type SignedUp, type TestApp } from '../support/app.js';
import { numberingYearOf, waitForRun } from '../support/billing.js';
import { create, fixtures } from '../support/fixtures.js';
import { spawnEbbs } from '../support/process.js';
import { blocksAnother, waitFor } from '../support/waiting.js';

const QH = 15 * 60 * 1000;
const CONTRACTS = 5;
/** One batch per contract, so that a worker can be killed between two committed batches. */
const FAST = { QUEUE_POLL_SECONDS: '0.5', BILL_RUN_BATCH_SIZE: '1', BILL_RUN_LEASE_SECONDS: '1', BILL_RUN_SWEEP_SECONDS: '0.5' };

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A worker is killed while the next batch of a phase waits on a lock this test holds (so earlier
 * batches have committed and one is in flight); another worker takes the run over once the lease
 * runs out and finishes it: no duplicate, no gap, no lost contract.
 */
describe('bill runs across worker crashes', () => {
  let app: TestApp;
  let a: SignedUp;
  let db: pg.Client;
  let env: Record<string, string>;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    app = await startTestApp({ ...FAST, WORKER: 'off' });
    a = await app.signUp('A');
    db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
    env = { ...FAST, DATABASE_URL: app.database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY };
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) await kill(worker);
    await db.end();
    await app.close();
  });

  const startWorker = () => {
    const worker = spawnEbbs(['worker'], env);
    // Read what it logs: a full pipe would stop a worker that writes to it.
    worker.stdout!.resume();
    worker.stderr!.resume();
    workers.push(worker);
    return worker;
  };

  /** CONTRACTS contracts of `account` with a day of data each, sorted by id. */
  async function billableContracts(account: SignedUp): Promise<Record<string, any>[]> {
    const { api } = account;
    const site = await fixtures.site(api, { type: 'unbalanced_accurate' });
    const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const product = await fixtures.product(api);
    const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
    const energy = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Arbeitspreis', kind: 'energy', taxRateId: vat.id });
    await create(api, '/v1/prices', { priceComponentId: energy.id, validFrom: '2026-01-01', amount: '0.300000' });
    const contracts: Record<string, any>[] = [];
    for (let i = 0; i < CONTRACTS; i++) {
      const meter = await fixtures.meter(api, site.id, { measuring: 'load_profile_accurate', startDate: '2026-09-30T22:00:00.000Z' });
      const dayStart = Date.parse('2026-09-30T22:00:00.000Z');
      await create(api, '/v1/measurements', { measurements: Array.from({ length: 96 }, (_, s) => ({ meterId: meter.id, timestamp: new Date(dayStart + s * QH).toISOString(), value: 0.5 })) });
      const customer = await fixtures.customer(api);
      const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
      await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
      contracts.push(contract);
    }
    return contracts.sort((x, y) => x.id.localeCompare(y.id));
  }

  it('finishes both phases after a SIGKILL in the middle of each', async () => {
    const contracts = await billableContracts(a);
    const counts = async (id: string) => (await a.api.get(`/v1/bill-runs/${id}`)).body.counts;
    // A session waits on a lock of this test's transaction. Others may wait too: once the stalled
    // batch outlives its lease, a second claim of the run waits on that batch's lock on the run.
    const waitingOnLock = () => blocksAnother(db);

    // Phase 1: the third contract (in the order runs draft them) has an uncommitted invoice of this
    // test for the day, so the worker's third batch waits on the exclusion constraint.
    await db.query('begin');
    await db.query(
      `insert into invoices (id, account_id, kind, contract_id, customer_id, period_start, period_end, state, net_total, taxes, gross_total, prepayments_total, amount_due, prepayment_ids, template_id, created_at, updated_at)
       values (gen_random_uuid(), $1, 'invoice', $2, $3, '2026-10-01', '2026-10-02', 'draft', 0, '[]', 0, 0, 0, '[]', gen_random_uuid(), now(), now())`,
      [a.accountId, contracts[2]!.id, contracts[2]!.customerId],
    );
    const first = startWorker();
    const run = await create(a.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-10-02' });
    await waitFor('two drafted batches', async () => (await counts(run.id)).contracts === 2);
    expect((await counts(run.id)).total).toBe(CONTRACTS);
    await waitFor('phase 1: the third batch waiting on the lock', waitingOnLock);
    await kill(first);
    await db.query('rollback');
    const second = startWorker();
    const created = await waitForRun(a.api, run.id, 'created');
    expect(created.counts).toEqual({ total: CONTRACTS, contracts: CONTRACTS, invoices: CONTRACTS, issued: 0, errors: 0 });
    const drafts = (await a.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data as Record<string, any>[];
    expect(drafts.map((d) => d.contractId).sort()).toEqual(contracts.map((c) => c.id));

    // Phase 2: the third draft (in the order runs issue them) is locked by this test.
    const third = drafts.map((d) => d.id).sort()[2]!;
    await db.query('begin');
    await db.query('select 1 from invoices where id = $1 for update', [third]);
    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitFor('two issued batches', async () => (await counts(run.id)).issued === 2);
    // The third batch is issued once the first batch's PDFs are stored, which waits for the
    // worker's render threads to start: on a loaded machine that can take tens of seconds.
    await waitFor('phase 2: the third batch waiting on the lock', waitingOnLock, 90_000);
    await kill(second);
    await db.query('rollback');
    startWorker();
    const completed = await waitForRun(a.api, run.id, 'completed');
    expect(completed.counts).toEqual({ total: CONTRACTS, contracts: CONTRACTS, invoices: CONTRACTS, issued: CONTRACTS, errors: 0 });
    const issued = (await a.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data as Record<string, any>[];
    const year = numberingYearOf(issued[0]!);
    expect(issued.map((i) => i.number).sort()).toEqual(Array.from({ length: CONTRACTS }, (_, i) => `INV-${year}-00000${i + 1}`));
    const { rows } = await db.query('select count(*)::int as pdfs from invoice_pdfs p join invoices i on i.id = p.invoice_id where i.bill_run_id = $1', [run.id]);
    expect(rows[0].pdfs).toBe(CONTRACTS);
    expect((await a.api.get('/v1/invoices')).body.total).toBe(CONTRACTS);
  }, 240_000);

  it('fails the completion when the PDFs of a batch cannot be stored, and a retry renders them', async () => {
    const b = await app.signUp('B');
    await billableContracts(b);
    startWorker();
    const run = await create(b.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-10-02' });
    const drafts = ((await waitForRun(b.api, run.id, 'created')) && (await b.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data) as Record<string, any>[];
    // The second draft in the order runs issue them: the first batch's PDF is stored, this one's is refused.
    const second = drafts.map((d) => d.id).sort()[1]!;
    await db.query(`create function refuse_pdf() returns trigger language plpgsql as $$
      begin if new.invoice_id = '${second}' then raise exception 'planted: no PDF for this invoice'; end if; return new; end $$`);
    await db.query('create trigger refuse_pdf before insert on invoice_pdfs for each row execute function refuse_pdf()');
    try {
      expect((await b.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
      const failed = await waitForRun(b.api, run.id, 'failed');
      expect(failed).toMatchObject({ phase: 'complete', failure: expect.stringContaining('planted: no PDF for this invoice') });
      const { rows: events } = await db.query(`select count(*)::int as n from events where account_id = $1 and type = 'bill_run.complete_error' and entity_id = $2`, [b.accountId, run.id]);
      expect(events[0].n).toBe(1);
      const { rows: pdfs } = await db.query('select p.invoice_id from invoice_pdfs p join invoices i on i.id = p.invoice_id where i.bill_run_id = $1', [run.id]);
      expect(pdfs.map((p) => p.invoice_id)).not.toContain(second);
    } finally {
      await db.query('drop trigger refuse_pdf on invoice_pdfs; drop function refuse_pdf()');
    }
    expect((await b.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(b.api, run.id, 'completed');
    expect(completed.counts).toEqual({ total: CONTRACTS, contracts: CONTRACTS, invoices: CONTRACTS, issued: CONTRACTS, errors: 0 });
    const issued = (await b.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data as Record<string, any>[];
    const year = numberingYearOf(issued[0]!);
    expect(issued.map((i) => i.number).sort()).toEqual(Array.from({ length: CONTRACTS }, (_, i) => `INV-${year}-00000${i + 1}`));
    const { rows } = await db.query('select count(*)::int as pdfs from invoice_pdfs p join invoices i on i.id = p.invoice_id where i.bill_run_id = $1', [run.id]);
    expect(rows[0].pdfs).toBe(CONTRACTS);
  }, 120_000);
});
