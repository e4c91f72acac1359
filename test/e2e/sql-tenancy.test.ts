import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { earliestCollectionDate } from '../../core/domain/time/target2.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { balancedSite, waitForBalance } from '../support/balancing.js';
import { waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';
import { startReceiver } from '../support/receiver.js';
import { checkStatement, loadParser, parameterClasses, type Checked, type Schema } from '../support/sql-tenancy.js';

const QH = 15 * 60 * 1000;
/** February 2026 in Berlin: 28 days of 96 quarter hours. */
const FEBRUARY = { from: Date.parse('2026-01-31T23:00:00.000Z'), to: Date.parse('2026-02-28T23:00:00.000Z') };
const series = (meterId: string, kwh: number) =>
  Array.from({ length: (FEBRUARY.to - FEBRUARY.from) / QH }, (_, i) => ({ meterId, timestamp: new Date(FEBRUARY.from + i * QH).toISOString(), value: kwh }));

async function readSchema(url: string): Promise<Schema> {
  const columns = new Map<string, Set<string>>();
  for (const row of await queryRows<{ table_name: string; column_name: string }>(url, `select table_name, column_name from information_schema.columns where table_schema = 'public'`)) {
    if (!columns.has(row.table_name)) columns.set(row.table_name, new Set());
    columns.get(row.table_name)!.add(row.column_name);
  }
  const mutable = await queryRows<{ proname: string }>(url, `select proname from pg_proc group by proname having bool_or(provolatile <> 'i')`);
  return { columns, mutableFunctions: new Set(mutable.map((row) => row.proname)) };
}

const describeFindings = (checked: Checked) => `${checked.fingerprint}  ${checked.sql.replace(/\s+/g, ' ').trim()}\n${checked.findings.map((f) => `    ${f.kind}: ${f.detail}`).join('\n')}`;

describe('SQL tenancy: every join between tenant tables carries account_id', () => {
  let app: TestApp;
  let schema: Schema;
  /** Each statement run, with the patterns of equal parameters it ran with. */
  const runs = new Map<string, Map<string, (string | undefined)[]>>();

  beforeAll(async () => {
    await loadParser();
    app = await startTestApp(
      { QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_POLL_SECONDS: '0.1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', BILL_RUN_BATCH_SIZE: '2', BALANCING_SWEEP_SECONDS: '1' },
      {
        onQuery: (sql, params) => {
          const classes = parameterClasses(params);
          const key = JSON.stringify(classes);
          let patterns = runs.get(sql);
          if (!patterns) runs.set(sql, (patterns = new Map()));
          if (!patterns.has(key)) patterns.set(key, classes);
        },
      },
    );
    schema = await readSchema(app.database.url);
  });
  afterAll(() => app.close());

  it('the checker reports planted joins, correlated subqueries, locks and RETURNING clauses without account_id, and passes them with it', () => {
    const findings = (sql: string, params?: unknown[]) => checkStatement(sql, schema, params).findings.map((f) => `${f.kind}: ${f.detail}`);
    // A join.
    expect(findings('select c.number from contracts c join contract_meters cm on cm.contract_id = c.id where c.account_id = $1')).toEqual(['join: contracts c with contract_meters cm']);
    expect(findings('select c.number from contracts c join contract_meters cm on cm.contract_id = c.id and cm.account_id = c.account_id where c.account_id = $1')).toEqual([]);
    expect(findings('select c.number from contracts c, contract_meters cm where cm.contract_id = c.id and c.account_id = ? and cm.account_id = ?', ['a', 'a'])).toEqual([]);
    expect(findings('select c.number from contracts c join contract_meters cm on cm.contract_id = c.id where c.account_id = $1 and cm.account_id = $2')).toEqual(['join: contracts c with contract_meters cm']);
    expect(findings('select c.number from contracts c join contract_meters cm on cm.contract_id = c.id where c.account_id = $1 and cm.account_id = $2', ['a', 'b'])).toEqual(['join: contracts c with contract_meters cm']);
    expect(findings('select 1 from contracts c join contract_meters cm on cm.contract_id = c.id and (cm.account_id = c.account_id or c.id is null)')).toEqual(['join: contracts c with contract_meters cm']);
    expect(findings('select 1 from contracts c join meters m using (account_id) join sites s on s.account_id = m.account_id')).toEqual([]);
    expect(findings('select m.id from meters m join json_to_recordset($1::json) as r(meter_id uuid) on r.meter_id = m.id')).toEqual([]);
    expect(findings(`update payments p set locked_at = now() from invoices i where i.id = p.invoice_id and i.account_id = $1`)).toEqual(['join: payments p with invoices i']);
    expect(findings(`update payments p set locked_at = now() from invoices i where i.id = p.invoice_id and i.account_id = $1 and p.account_id = i.account_id`)).toEqual([]);
    // A correlated subquery, in WHERE and LATERAL.
    expect(findings('select s.id from sites s where s.account_id = $1 and exists (select 1 from meters v where v.site_id = s.id)')).toEqual(['correlated subquery: meters v refers to sites s']);
    expect(findings('select s.id from sites s where s.account_id = $1 and exists (select 1 from meters v where v.site_id = s.id and v.account_id = s.account_id)')).toEqual([]);
    expect(findings('select s.id, n.count from sites s cross join lateral (select count(*) from meters v where v.site_id = s.id) n')).toEqual([
      'join: sites s with (subquery) n',
      'correlated subquery: meters v refers to sites s',
    ]);
    expect(findings('select s.id, n.count from sites s cross join lateral (select count(*) from meters v where v.site_id = s.id and v.account_id = s.account_id) n')).toEqual([]);
    // A join through a CTE.
    expect(findings('with w as (select id, site_id from meters where account_id = $1) select 1 from w join sites s on s.id = w.site_id')).toEqual(['join: w (CTE) with sites s']);
    expect(findings('with w as (select id, site_id from meters where account_id = $1) select 1 from w join sites s on s.id = w.site_id and s.account_id = $1')).toEqual([]);
    // FOR UPDATE and RETURNING.
    expect(findings('select id from meters where id = $1 for update')).toEqual(['for update: meters locked without its account_id equated to a parameter']);
    expect(findings('select id from meters where account_id = $1 and id = $2 for update')).toEqual([]);
    expect(findings('delete from balancing_dirty_ranges where account_id = $1 returning extract(epoch from from_at) * 1000 as from_at')).toEqual(['returning: extract() is not immutable']);
    expect(findings('delete from balancing_dirty_ranges where account_id = $1 returning from_at, site_id')).toEqual([]);
  });

  it('finds none in what the application runs for onboarding, ingest, balancing, webhooks, bill runs, payments and GraphQL', async () => {
    const a = await app.signUp('Tenancy A');
    const api = a.api;
    expect((await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: a.refreshToken })).status).toBe(201);
    const receiver = await startReceiver();
    const endpoint = await create(api, '/v1/webhook-endpoints', { url: receiver.url, events: ['*'] });

    // Onboarding a balanced site, with a virtual grid meter; a register on an unbalanced site.
    const { site, producer, consumers } = await balancedSite(api, [1, null]);
    const virtualMpo = await create(api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'Virtual' });
    const grid = await create(api, '/v1/meters', {
      siteId: site.id,
      mpoId: virtualMpo.id,
      direction: 'consumer',
      identifier: 'GRID',
      measuring: 'load_profile_accurate',
      startDate: '2025-12-31T23:00:00.000Z',
      grid: true,
      formula: [{ type: 'aggregation', aggregation: 'sum_local_consumer' }, { type: 'arithmetic', arithmetic: 'subtraction' }, { type: 'aggregation', aggregation: 'sum_local_producer' }],
    });
    const other = await fixtures.site(api, { type: 'unbalanced_accurate' });
    const register = await fixtures.meter(api, other.id, { measuring: 'readings_inaccurate', startDate: '2025-12-31T23:00:00.000Z' });
    const spare = await fixtures.meter(api, other.id);

    // Measurements ingest; the worker balances.
    for (const [meterId, kwh] of [[producer.id, 1.5], [consumers[0]!.id, 1], [consumers[1]!.id, 1]] as const) {
      expect((await api.post('/v1/measurements', { measurements: series(meterId, kwh) })).status).toBe(201);
    }
    const readings = [
      { meterId: register.id, timestamp: '2026-01-31T10:00:00.000Z', value: 100 },
      { meterId: register.id, timestamp: '2026-02-01T10:00:00.000Z', value: 124 },
      { meterId: register.id, timestamp: '2026-02-27T12:34:56.789Z', value: 844 },
    ];
    expect((await api.post('/v1/measurements', { measurements: readings })).status).toBe(201);
    await waitForBalance(api, site.id, '2026-02-28T22:45:00.000Z', 60_000);
    const reads = [
      `/v1/measurements?meterId=${producer.id}&startDateTime=2026-02-02T00:00:00.000Z&endDateTime=2026-02-02T03:00:00.000Z`,
      `/v1/measurements?meterId=${register.id}&startDateTime=2026-01-31T00:00:00.000Z&endDateTime=2026-03-01T00:00:00.000Z`,
      `/v1/aggregated-measurements?meterId=${register.id}&startDateTime=2026-01-31T23:00:00.000Z&endDateTime=2026-02-28T23:00:00.000Z&interval=P1D`,
      `/v1/aggregated-measurements?meterId=${grid.id}&startDateTime=2026-01-31T23:00:00.000Z&endDateTime=2026-02-01T23:00:00.000Z&interval=PT1H`,
      `/v1/aggregated-balances?siteId=${site.id}&startDateTime=2026-01-31T23:00:00.000Z&endDateTime=2026-02-28T23:00:00.000Z&interval=P1D`,
      `/v1/aggregated-balances?debitorMeterId=${consumers[0]!.id}&startDateTime=2026-01-31T23:00:00.000Z&endDateTime=2026-02-01T23:00:00.000Z&interval=PT1H`,
    ];
    for (const path of reads) expect((await api.get(path)).status, path).toBe(200);

    // Price sheet, customers with a custom attribute, contracts, prepayments.
    const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const product = await fixtures.product(api, { prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 15 } });
    const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
    const prices: Record<string, any>[] = [];
    for (const [kind, amount] of [['local_energy', '0.200000'], ['grid_energy', '0.300000'], ['base_fee', '12.000000']] as const) {
      const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
      prices.push(await create(api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount }));
    }
    const floor = await create(api, '/v1/custom-attributes', { title: 'Floor', name: 'floor', entity: 'customer', type: 'number' });
    const contracts: Record<string, any>[] = [];
    for (const [index, consumer] of consumers.entries()) {
      const customer = await fixtures.customer(api, { address: { line1: `Hausweg ${index + 1}`, locality: 'Berlin', postCode: '10115', country: 'DE' }, customAttributes: { floor: index } });
      const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
      await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumer.id, startDate: '2026-01-01' });
      contracts.push(contract);
    }
    expect((await api.patch(`/v1/custom-attributes/${floor.id}`, { type: 'text' })).status).toBe(409);
    await create(api, '/v1/payment-methods', { customerId: contracts[0]!.customerId, type: 'bank_transfer' });
    await create(api, '/v1/prepayment-amounts', { contractId: contracts[0]!.id, amount: '50.00', validFrom: '2026-01-01' });
    await create(api, '/v1/prepayment-requests', { contractId: contracts[0]!.id, startDate: '2026-01-01', endDate: '2026-04-01' });
    const prepayments = (await api.get(`/v1/payments?contractId=${contracts[0]!.id}&type=prepayment`)).body.data as Record<string, any>[];
    const february = prepayments.find((p) => p.dueDate === '2026-02-15')!;
    expect((await api.patch(`/v1/payments/${february.id}`, { state: 'received' })).status).toBe(200);
    const batch = await api.post('/v1/payments/batch', { payments: [{ contractId: contracts[1]!.id, amount: '20.00', type: 'prepayment', state: 'received', dueDate: '2026-02-10' }] });
    expect(batch.status).toBe(201);

    // A bill run: a draft read over GraphQL, created, completed; one invoice cancelled, the other paid.
    const draft = await api.graphql(`query($id: ID!) { contract(id: $id) { draftInvoice(periodStart: "2026-02-01", periodEnd: "2026-03-01") { netTotal amountDue } } }`, { id: contracts[0]!.id });
    expect(draft.body.errors).toBeUndefined();
    const run = await create(api, '/v1/bill-runs', { periodStart: '2026-02-01', periodEnd: '2026-03-01' });
    expect((await waitForRun(api, run.id, 'created')).counts).toMatchObject({ invoices: 2, errors: 0 });
    expect((await api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(api, run.id, 'completed');
    expect((await api.patch(`/v1/prices/${prices[0]!.id}`, { amount: '0.210000' })).body.code).toBe('price_in_use');
    const [first, second] = (await api.get(`/v1/invoices?billRunId=${run.id}`)).body.data as Record<string, any>[];
    expect((await fetch(`${app.url}/v1/invoices/${first!.id}/pdf`, { headers: { authorization: `Bearer ${a.accessToken}` } })).status).toBe(200);
    expect((await api.get(`/v1/line-items?invoiceId=${first!.id}`)).status).toBe(200);
    expect((await api.post(`/v1/invoices/${first!.id}/cancel`)).status).toBe(201);
    const payment = await api.post('/v1/payments', { contractId: second!.contractId, amount: second!.amountDue, type: 'payment', state: 'received', dueDate: '2026-03-20', invoiceId: second!.id });
    expect(payment.status).toBe(201);
    expect((await api.get(`/v1/invoices/${second!.id}`)).body.state).toBe('paid');
    // The cancelled invoice's contract is billable again (the paid one is an error): drafted, then deleted.
    const rerun = await create(api, '/v1/bill-runs', { periodStart: '2026-02-01', periodEnd: '2026-03-01', siteIds: [site.id] });
    expect((await waitForRun(api, rerun.id, 'created')).counts).toMatchObject({ invoices: 1, errors: 1 });
    expect((await api.delete(`/v1/bill-runs/${rerun.id}`)).status).toBe(204);

    // SEPA payment runs: a direct debit of a prepayment (the other customer pays by transfer: skipped), its file, its outcome; a second run cancelled.
    const collectionDate = earliestCollectionDate(calendarDateOf(new Date(), 'Europe/Berlin'));
    await create(api, '/v1/payment-methods', { customerId: contracts[1]!.customerId, type: 'sepa_direct_debit', accountHolder: 'Anna Meyer', iban: 'DE89370400440532013000', mandateReference: 'M-1', mandateSignedAt: '2026-01-01' });
    const collected = await create(api, '/v1/payments', { contractId: contracts[1]!.id, amount: '40.00', type: 'prepayment', dueDate: '2026-03-15' });
    const paymentRun = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-03-31' });
    expect((await api.get(`/v1/payment-runs/${paymentRun.id}/items`)).body.total).toBe(1);
    expect((await fetch(`${app.url}/v1/payment-runs/${paymentRun.id}/file`, { headers: { authorization: `Bearer ${a.accessToken}` } })).status).toBe(200);
    expect((await api.patch(`/v1/payments/${collected.id}`, { state: 'received' })).status).toBe(200);
    expect((await api.get(`/v1/payment-runs/${paymentRun.id}`)).body.state).toBe('closed');
    await create(api, '/v1/payments', { contractId: contracts[1]!.id, amount: '40.00', type: 'prepayment', dueDate: '2026-03-16' });
    const cancelled = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-03-31' });
    expect((await api.post(`/v1/payment-runs/${cancelled.id}/cancel`)).status).toBe(200);

    // Webhooks delivered.
    await receiver.until(() => ['invoice.cancelled', 'invoice.paid', 'bill_run.complete_success'].every((type) => receiver.events().some((e) => e.type === type)), 20_000);
    expect((await api.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=5`)).status).toBe(200);
    expect((await api.get('/v1/events?type=invoice.issued')).body.total).toBeGreaterThanOrEqual(2);
    await receiver.close();

    // GraphQL reads through the DataLoaders.
    const graph = await api.graphql(
      `{ sites(limit: 10) { total data { name
          meters(limit: 10) { identifier contract { number payments(limit: 5) { amount } invoices(limit: 5) { number lineItems(limit: 10) { quantity } }
            customer { lastName paymentMethods(limit: 5) { type } invoices(limit: 5) { number } } } }
          contracts(limit: 10) { number meters(limit: 10) { identifier } }
          balancingSettings(limit: 10) { priority meter { identifier } } } }
        paymentRuns(limit: 5) { data { state controlSum items(limit: 5) { amount sequenceType } } } }`,
    );
    expect(graph.body.errors).toBeUndefined();
    const balances = await api.graphql(`query($id: ID!) { site(id: $id) { balances(startDateTime: "2026-01-31T23:00:00.000Z", endDateTime: "2026-02-01T23:00:00.000Z", interval: P1D) { total } } }`, { id: site.id });
    expect(balances.body.errors).toBeUndefined();

    // Deletions and moves look for references.
    expect((await api.graphql('mutation($id: ID!) { deleteMeter(id: $id) { id } }', { id: spare.id })).body.errors).toBeUndefined();
    expect((await api.graphql('mutation($id: ID!) { deleteContract(id: $id) { id } }', { id: contracts[1]!.id })).body.errors[0].extensions.code).toBe('contract_in_use');
    expect((await api.patch(`/v1/meters/${register.id}`, { siteId: site.id })).status).toBe(200);

    // Every distinct statement (by fingerprint), with every pattern of equal parameters it ran with.
    const checked = new Map<string, Checked>();
    const unparsable: string[] = [];
    for (const [sql, patterns] of runs) {
      for (const params of patterns.values()) {
        let result: Checked;
        try {
          result = checkStatement(sql, schema, params);
        } catch (error) {
          unparsable.push(`${sql}\n    ${(error as Error).message}`);
          break;
        }
        const known = checked.get(result.fingerprint);
        if (!known) checked.set(result.fingerprint, result);
        else for (const finding of result.findings) if (!known.findings.some((f) => f.kind === finding.kind && f.detail === finding.detail)) known.findings.push(finding);
      }
    }
    expect(unparsable, `statements libpg-query cannot parse:\n${unparsable.join('\n')}`).toEqual([]);
    // The workload reached every tenant table, so its statements are the application's.
    const tenantTables = [...schema.columns].filter(([, columns]) => columns.has('account_id')).map(([table]) => table).sort();
    const reached = new Set([...checked.values()].flatMap((c) => c.tables));
    expect(tenantTables.filter((table) => !reached.has(table)), 'tenant tables no statement touched').toEqual([]);
    expect(checked.size).toBeGreaterThan(100);

    const failing = [...checked.values()].filter((c) => c.findings.length > 0);
    expect(failing.map((c) => c.fingerprint), `statements that break tenancy by account_id:\n${failing.map(describeFindings).join('\n')}`).toEqual([]);
  }, 180_000);
});
