/**
 * `npm run bench`: starts the service on PostgreSQL in its own process, loads meter data through
 * the API the way partners send it (96 consecutive quarter hours per meter and request), loads
 * the same kind of rows with raw COPY as the baseline of this run, measures webhook deliveries to a
 * local receiver and what the outbox's fan-out adds to a write, bills a balanced month of 1,000
 * contracts (drafts, then issued invoices per second, beside the invoices per second a render pool
 * makes of such PDFs with nothing else running and the CPU one of them costs), creates a SEPA
 * direct debit run of 10,000 payments and its file, reads a site over REST under load against a
 * bare Express app and a page of 100 contracts over GraphQL against REST (http-load.ts), and prints
 * one JSON object as the last line of its output. `npm run bench -- --only rest,graphql` runs only
 * those scenarios (SCENARIOS names them all) and prints the figures of those.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { parseCli } from '../../app/cli.js';
import { loadConfig } from '../../app/config.js';
import { renderInOwnTask } from '../../core/billing/invoices/invoice-pdf-warm-up.js';
import { PdfRenderPool } from '../../core/billing/invoices/pdf-render-pool.js';
import { Api } from '../support/http.js';
import { billedInvoice } from '../support/invoice-documents.js';
import { alternate, load, median, startBareExpress } from './http-load.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const QH = 15 * 60 * 1000;
const DAY = 96 * QH;
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
/** http to 127.0.0.1 must pass where an endpoint is saved (service) and where it is sent to (worker); due deliveries every 0.1 s. */
const WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_SECONDS: '0.1' };
const SITE = { name: 'S', type: 'balanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } };

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

interface Started {
  /** The first match of `ready` in the output. */
  ready: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `app/main.ts <command>` as its own process, as `npm start` / `npm run worker` do. */
async function startProcess(command: string, url: string, ready: RegExp, env: Record<string, string> = {}): Promise<Started> {
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles", profiles the service and the workers (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'app/main.ts', command], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, DATABASE_URL: url, JWT_SECRET: SECRET, WEBHOOK_SECRET_KEY: SECRET, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const match = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = ready.exec(output);
      if (found) resolve(found[1] ?? found[0]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
  return { ready: match, pid: child.pid!, output: () => output, stop: () => new Promise((resolve) => (child.on('exit', () => resolve()), child.kill('SIGTERM'))) };
}

/** `values` values as 96 consecutive quarter hours per meter, starting on `day` (epoch ms). */
function upload(meterIds: string[], values: number, day: number): string {
  const items = Array.from({ length: values }, (_, k) => ({
    meterId: meterIds[Math.floor(k / 96) % meterIds.length]!,
    timestamp: new Date(day + (k % 96) * QH + Math.floor(k / 96 / meterIds.length) * DAY).toISOString(),
    value: ((k * 7) % 1000) / 1000,
  }));
  return JSON.stringify({ measurements: items });
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function ingestRate(clients: Api[], bodies: string[][]): Promise<number> {
  const count = bodies.flat().reduce((sum, body) => sum + (body.match(/"meterId"/g)?.length ?? 0), 0);
  const seconds = await timed(async () => {
    await Promise.all(
      clients.map(async (client, i) => {
        for (const body of bodies[i]!) {
          const response = await client.post('/v1/measurements', body, { 'content-type': 'application/json' });
          if (response.status !== 201) throw new Error(`ingest failed: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        }
      }),
    );
  });
  return Math.round(count / seconds);
}

/**
 * A site with 1 producer and 99 consumers ingests a year (3.5 million values) with no worker
 * running; then a worker starts and balances it from scratch (its own log gives the run time);
 * then one more day is ingested and timed until its last interval is balanced; then the site
 * switches to the dynamic key from the first day and a fresh worker balances the year again.
 */
async function balanceSiteYear(api: Api, url: string): Promise<{ balance_site_year_s: number; balance_site_year_dynamic_s: number; balance_new_day_s: number }> {
  const site = (await api.post('/v1/sites', { name: 'Year', type: 'balanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } })).body;
  const meters: string[] = [];
  for (let i = 0; i < 100; i++) {
    const meter = await api.post('/v1/meters', {
      siteId: site.id,
      direction: i === 0 ? 'producer' : 'consumer',
      identifier: `Y-${i}`,
      measuring: 'load_profile_accurate',
      startDate: '2024-12-31T23:00:00.000Z',
    });
    meters.push(meter.body.id);
    await api.post('/v1/meter-balancing-settings', { siteId: site.id, meterId: meter.body.id, balancing: 'participant', startDate: '2025-01-01', priority: i % 3 === 0 ? null : i % 3 });
  }
  const first = Date.parse('2025-01-01T00:00:00.000Z');
  const body = (day: number) =>
    JSON.stringify({
      measurements: meters.flatMap((meterId, m) =>
        Array.from({ length: 96 }, (_, slot) => ({
          meterId,
          timestamp: new Date(first + day * DAY + slot * QH).toISOString(),
          value: m === 0 ? (slot >= 28 && slot < 68 ? 40 : 0) : ((m * 7 + slot) % 10) / 10,
        })),
      ),
    });
  for (let day = 0; day < 365; day++) {
    const response = await api.post('/v1/measurements', body(day), { 'content-type': 'application/json' });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body).slice(0, 300));
  }
  const worker = await startProcess('worker', url, /"durationMs":(\d+)/, { LOG_LEVEL: 'info', QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '0.5' });
  const yearSeconds = Number(worker.ready) / 1000;
  const lastInterval = new Date(first + 366 * DAY - QH).toISOString();
  const dayStarted = process.hrtime.bigint();
  await api.post('/v1/measurements', body(365), { 'content-type': 'application/json' });
  const ingested = process.hrtime.bigint();
  for (;;) {
    const status = (await api.get(`/v1/sites/${site.id}/balancing-status`)).body;
    if (status.lastBalancedInterval === lastInterval && status.pendingRanges === 0) break;
    if (Number(process.hrtime.bigint() - dayStarted) > 60e9) throw new Error(`new day not balanced: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const newDaySeconds = Number(process.hrtime.bigint() - ingested) / 1e9;
  await worker.stop();
  // The same site and year again under the dynamic key (in proportion to demand), from scratch.
  const dynamic = await api.patch(`/v1/sites/${site.id}`, { allocationKey: 'dynamic', allocationKeyValidFrom: '2025-01-01' });
  if (dynamic.status !== 200) throw new Error(`dynamic key: ${JSON.stringify(dynamic.body).slice(0, 300)}`);
  const again = await startProcess('worker', url, /"durationMs":(\d+)/, { LOG_LEVEL: 'info', QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '0.5' });
  await again.stop();
  return {
    balance_site_year_s: Number(yearSeconds.toFixed(2)),
    balance_site_year_dynamic_s: Number((Number(again.ready) / 1000).toFixed(2)),
    balance_new_day_s: Number(newDaySeconds.toFixed(2)),
  };
}

interface Receiver {
  url: string;
  received(): number;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that answers 204 to every request at once and counts them. */
async function startReceiver(): Promise<Receiver> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received: () => received,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Polls `done` every 5 ms until it holds (true) or `seconds` have passed (false). */
async function within(seconds: number, done: () => boolean | Promise<boolean>): Promise<boolean> {
  const started = process.hrtime.bigint();
  while (!(await done())) {
    if (Number(process.hrtime.bigint() - started) > seconds * 1e9) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

async function created(api: Api, path: string, body: unknown): Promise<Record<string, any>> {
  const response = await api.post(path, body);
  if (response.status !== 201) throw new Error(`${path} failed: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.body;
}

async function deliveryCount(api: Api, endpointId: string, state?: string): Promise<number> {
  return (await api.get(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=1${state ? `&state=${state}` : ''}`)).body.total;
}

/** Every delivery of the endpoint ends `delivered` once the receiver has them all (the worker records a round after sending it). */
async function expectAllDelivered(api: Api, endpointId: string, count: number): Promise<void> {
  if (!(await within(10, async () => (await deliveryCount(api, endpointId, 'pending')) === 0))) throw new Error(`${await deliveryCount(api, endpointId, 'pending')} deliveries still pending`);
  const delivered = await deliveryCount(api, endpointId, 'delivered');
  if (delivered !== count) throw new Error(`${delivered} of ${count} deliveries delivered`);
}

/**
 * 10,000 `payment.created` events (10 batches of 1,000 payments) for one endpoint, delivered by a
 * worker process to `receiver` (fresh): received per second from the first batch until all have
 * arrived, or until 60 s after the last batch (then the shortfall goes to stderr). Leaves the
 * endpoint disabled.
 */
async function webhookDeliveries(api: Api, url: string, receiver: Receiver): Promise<number> {
  const events = 10_000;
  const limitSeconds = 60;
  const site = await created(api, '/v1/sites', SITE);
  const product = await created(api, '/v1/electricity-products', { name: 'Bench' });
  const customer = await created(api, '/v1/customers', { lastName: 'Bench' });
  const contract = await created(api, '/v1/contracts', { customerId: customer.id, electricityProductId: product.id, siteId: site.id, dunningBlock: false, startDate: '2026-01-01', number: 'C-1' });
  const endpoint = await created(api, '/v1/webhook-endpoints', { url: receiver.url, events: ['payment.created'] });
  const batch = { payments: Array.from({ length: 1000 }, () => ({ contractId: contract.id, amount: '1.00', type: 'payment', dueDate: '2026-01-01' })) };
  const worker = await startProcess('worker', url, /"msg":"worker started"/, { LOG_LEVEL: 'info', ...WEBHOOK_ENV });
  try {
    const seconds = await timed(async () => {
      for (let i = 0; i < events / batch.payments.length; i++) await created(api, '/v1/payments/batch', batch);
      await within(limitSeconds, () => receiver.received() >= events);
    });
    const received = receiver.received();
    if (received < events) console.error(`webhook deliveries: ${received} of ${events} received within ${limitSeconds} s`);
    else await expectAllDelivered(api, endpoint.id, events);
    return Math.round(received / seconds);
  } finally {
    await worker.stop();
    await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { enabled: false });
  }
}

/** Sites created per second, `perClient` one after the other on each client, the clients at once. */
async function siteCreationRate(clients: Api[], perClient: number): Promise<number> {
  const seconds = await timed(async () => {
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < perClient; i++) await created(client, '/v1/sites', SITE);
      }),
    );
  });
  return (clients.length * perClient) / seconds;
}

/**
 * Site creation with no enabled webhook endpoint against one enabled endpoint for `site.created`
 * (no worker runs, so this is the write alone): 6 rounds of 300 each, alternating and in turned
 * order every round so that drift cancels. Percent of the rate without that the endpoint costs.
 */
async function outboxWriteOverhead(api: Api, clients: Api[], receiver: Receiver): Promise<number> {
  const rounds = 6;
  const perRound = 300;
  const perClient = perRound / clients.length;
  const endpoint = await created(api, '/v1/webhook-endpoints', { url: receiver.url, events: ['site.created'], enabled: false });
  // Warm-up: the route's first few hundred requests are markedly slower.
  await siteCreationRate(clients, 4 * perClient);
  const rates = { without: [] as number[], with: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const enabled of round % 2 === 0 ? [false, true] : [true, false]) {
      await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { enabled });
      rates[enabled ? 'with' : 'without'].push(await siteCreationRate(clients, perClient));
    }
  }
  const written = await deliveryCount(api, endpoint.id);
  if (written !== rounds * perRound) throw new Error(`${written} deliveries written, expected ${rounds * perRound}`);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return Number((((mean(rates.without) - mean(rates.with)) / mean(rates.without)) * 100).toFixed(1));
}

/** October 2026 in the account's timezone (Europe/Berlin): 2,980 quarter hours, the 25th 25 hours long. */
const MONTH = { periodStart: '2026-10-01', periodEnd: '2026-11-01', from: Date.parse('2026-09-30T22:00:00.000Z'), to: Date.parse('2026-10-31T23:00:00.000Z') };
/** Balanced sites of one producer and 100 consumers, each consumer on its own contract. */
const BILLED_SITES = 10;
const CONSUMERS = 100;

/** `work` on every item, `size` requests at a time (most resources have no batch endpoint); results in item order. */
async function inChunks<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

/** A product with VAT and local energy (a new price from October 11), grid energy and base fee prices. */
async function billedProduct(api: Api): Promise<string> {
  const vat = await created(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
  const product = await created(api, '/v1/electricity-products', { name: 'Bill run' });
  const group = await created(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
  const prices = { local_energy: [['2026-01-01', '0.200000'], ['2026-10-11', '0.250000']], grid_energy: [['2026-01-01', '0.300000']], base_fee: [['2026-01-01', '12.000000']] };
  for (const [kind, versions] of Object.entries(prices)) {
    const component = await created(api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
    for (const [validFrom, amount] of versions) await created(api, '/v1/prices', { priceComponentId: component.id, validFrom, amount });
  }
  return product.id;
}

interface BilledSite {
  id: string;
  /** The producer first, then the consumers. */
  meterIds: string[];
}

/**
 * The sites over the API, 20 requests at a time: per meter its participant setting (consumer
 * priorities 1, 2 and none in turn) and, for a consumer, a customer, a contract from 2026-01-01 and
 * the contract meter; then one received prepayment per contract in one batch.
 */
async function billedSites(api: Api, productId: string): Promise<BilledSite[]> {
  const sites = await inChunks(Array.from({ length: BILLED_SITES }, (_, s) => s), 20, (s) => created(api, '/v1/sites', { ...SITE, name: `Billed ${s}` }));
  const slots = sites.flatMap((site, s) => Array.from({ length: CONSUMERS + 1 }, (_, m) => ({ siteId: site.id, s, m })));
  const meters = await inChunks(slots, 20, async ({ siteId, s, m }) => {
    const direction = m === 0 ? 'producer' : 'consumer';
    const meter = await created(api, '/v1/meters', { siteId, direction, identifier: `R-${s}-${m}`, measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
    await created(api, '/v1/meter-balancing-settings', { siteId, meterId: meter.id, balancing: 'participant', startDate: '2026-01-01', priority: m % 3 === 0 ? null : m % 3 });
    if (m === 0) return { meterId: meter.id as string, contractId: null };
    const customer = await created(api, '/v1/customers', { lastName: `Mieter ${s}-${m}`, address: { line1: `Hausweg ${m}`, ...SITE.address } });
    const contract = await created(api, '/v1/contracts', { customerId: customer.id, electricityProductId: productId, siteId, dunningBlock: false, startDate: '2026-01-01', number: `R-${s}-${m}` });
    await created(api, '/v1/contract-meters', { contractId: contract.id, siteId, meterId: meter.id, startDate: '2026-01-01' });
    return { meterId: meter.id as string, contractId: contract.id as string };
  });
  const contractIds = meters.flatMap((m) => (m.contractId ? [m.contractId] : []));
  await created(api, '/v1/payments/batch', { payments: contractIds.map((contractId) => ({ contractId, amount: '30.00', type: 'prepayment', state: 'received', dueDate: '2026-10-05' })) });
  return sites.map((site, s) => ({ id: site.id, meterIds: meters.slice(s * (CONSUMERS + 1), (s + 1) * (CONSUMERS + 1)).map((m) => m.meterId) }));
}

/** Wh in the quarter hour at UTC slot `slot`: the producer 12 kWh from 07:00 to 17:00 UTC, consumers 50 to 230 Wh. */
function billedWh(meterIndex: number, slot: number): number {
  if (meterIndex === 0) return slot >= 28 && slot < 68 ? 12_000 : 0;
  return 50 + ((meterIndex * 7 + slot) % 10) * 20;
}

/** The UTC days (epoch ms) the month's quarter hours lie on: day rows are UTC days. */
function monthDays(): number[] {
  const first = MONTH.from - (MONTH.from % DAY);
  return Array.from({ length: Math.floor((MONTH.to - QH - first) / DAY) + 1 }, (_, d) => first + d * DAY);
}

/**
 * The month of every meter by COPY as the UTC day rows ingest writes (NULL outside the month), then
 * each site's range marked for balancing as ingest marks it (first to last quarter hour).
 */
async function copyMonth(client: pg.Client, accountId: string, sites: readonly BilledSite[]): Promise<void> {
  const days = monthDays();
  const rows = sites.flatMap((site) =>
    site.meterIds.flatMap((meterId, m) =>
      days.map((day) => {
        const values = Array.from({ length: 96 }, (_, slot) => (day + slot * QH >= MONTH.from && day + slot * QH < MONTH.to ? billedWh(m, slot) : 'NULL'));
        return `${accountId}\t${meterId}\t${new Date(day).toISOString().slice(0, 10)}\t{${values.join(',')}}\n`;
      }),
    ),
  );
  await pipeline(Readable.from(rows), client.query(copyFrom('COPY measurement_days (account_id, meter_id, day, "values") FROM STDIN')));
  await client.query(
    `insert into balancing_dirty_ranges (id, account_id, site_id, from_at, to_at)
     select gen_random_uuid(), $1, site_id, $2, $3 from unnest($4::uuid[]) as site_id`,
    [accountId, new Date(MONTH.from), new Date(MONTH.to - QH), sites.map((s) => s.id)],
  );
}

/**
 * Waits until every site is balanced over the month: nothing pending or queued, the last interval
 * balanced and none incomplete (every meter has every quarter hour, so each one is balanced).
 */
async function expectMonthBalanced(api: Api, siteIds: readonly string[]): Promise<void> {
  const lastInterval = new Date(MONTH.to - QH).toISOString();
  const started = process.hrtime.bigint();
  for (const siteId of siteIds) {
    for (;;) {
      const status = (await api.get(`/v1/sites/${siteId}/balancing-status`)).body;
      const settled = status.pendingRanges === 0 && !status.jobs.created && !status.jobs.retry && !status.jobs.active;
      if (settled && status.lastBalancedInterval === lastInterval && status.incompleteIntervals === 0) break;
      if (settled || Number(process.hrtime.bigint() - started) > 300e9) throw new Error(`site ${siteId} not balanced over the month: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * How often a bill run is polled: each poll is a request the service answers (the run, its invoices
 * counted by state) on a machine the run keeps busy.
 */
const POLL_MS = 500;

/**
 * Polls the run every POLL_MS until it reaches `state`; answers it and the seconds from `startedAt`
 * (this machine's clock, read before the request that started the phase) to its `updatedAt`, the
 * moment the worker finished the phase. The figure is the worker's, not the polls': they neither
 * round it up nor load the service while it is measured. A failed run, or 5 minutes, throws with
 * its body.
 */
async function runReaches(api: Api, id: string, state: string, startedAt: number): Promise<{ run: Record<string, any>; seconds: number }> {
  for (;;) {
    const run = (await api.get(`/v1/bill-runs/${id}`)).body;
    if (run.state === state) return { run, seconds: (Date.parse(run.updatedAt) - startedAt) / 1000 };
    if (run.state === 'failed' || Date.now() - startedAt > 300e3) throw new Error(`bill run did not reach ${state}: ${JSON.stringify(run).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The CPU time this machine's cores have spent busy since boot, in milliseconds: every process's
 * (the worker, its render threads, PostgreSQL, the service, the bench) and the kernel's.
 */
function machineBusyMs(): number {
  return cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
}

/**
 * 1,000 contracts on 10 balanced sites billed for a month by a worker process (default batch size):
 * set up over the API and by COPY, balanced by that worker (not timed), then invoices drafted per
 * second from `POST /v1/bill-runs` until `created`, and issued per second (numbers, locked
 * prepayments, PDFs) from `POST /complete` until `completed`. What issuing costs the machine: its
 * cores' busy time from `POST /complete` until the bench sees the run completed (a poll up to
 * POLL_MS later, with the machine all but idle), per invoice; the cores' time divided by this is
 * the most invoices per second the machine can issue.
 */
async function billRunRates(
  api: Api,
  url: string,
  accountId: string,
): Promise<{ bill_run_create_invoices_per_s: number; bill_run_complete_invoices_per_s: number; bill_run_complete_cpu_ms_per_invoice: number }> {
  const contracts = BILLED_SITES * CONSUMERS;
  const sites = await billedSites(api, await billedProduct(api));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let worker: Started | undefined;
  try {
    await copyMonth(client, accountId, sites);
    // Its first sweep schedules the marked sites; it sees the service's environment (info: its start is logged).
    worker = await startProcess('worker', url, /"msg":"worker started"/, { LOG_LEVEL: 'info', ...WEBHOOK_ENV });
    await expectMonthBalanced(api, sites.map((s) => s.id));
    // The bench's server runs without autovacuum: the statistics a deployed database has after such a load.
    await client.query('analyze');
    const createStarted = Date.now();
    const drafted = await runReaches(api, (await created(api, '/v1/bill-runs', { periodStart: MONTH.periodStart, periodEnd: MONTH.periodEnd })).id, 'created', createStarted);
    if (drafted.run.counts.invoices !== contracts || drafted.run.counts.errors !== 0) throw new Error(`bill run created: ${JSON.stringify(drafted.run).slice(0, 2000)}`);
    const completeStarted = Date.now();
    const busyBefore = machineBusyMs();
    const response = await api.post(`/v1/bill-runs/${drafted.run.id}/complete`);
    if (response.status !== 202) throw new Error(`complete failed: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    const { run, seconds: completeSeconds } = await runReaches(api, drafted.run.id, 'completed', completeStarted);
    const issuingBusyMs = machineBusyMs() - busyBefore;
    const issued = (await api.get(`/v1/invoices?billRunId=${run.id}&state=issued&limit=1`)).body;
    if (run.counts.issued !== contracts || issued.total !== contracts) throw new Error(`bill run completed: ${JSON.stringify(run).slice(0, 2000)}; ${issued.total} issued invoices listed`);
    const pdf = await api.get(`/v1/invoices/${issued.data[0].id}/pdf`);
    if (pdf.status !== 200 || !pdf.headers.get('content-type')?.startsWith('application/pdf')) throw new Error(`pdf: ${pdf.status} ${pdf.headers.get('content-type')}`);
    return {
      bill_run_create_invoices_per_s: Math.round(contracts / drafted.seconds),
      bill_run_complete_invoices_per_s: Math.round(contracts / completeSeconds),
      bill_run_complete_cpu_ms_per_invoice: Number((issuingBusyMs / contracts).toFixed(2)),
    };
  } finally {
    await worker?.stop();
    await client.end();
  }
}

const RENDERED = 1_000;

/**
 * The baseline of issuing: 1,000 invoices like the bill run's (two pages, two meters, every number
 * and name its own) rendered by a render pool of the worker's default size (a thread per core) in
 * this process, with nothing else running: the most invoices per second that PDFs allow here.
 */
async function renderPoolRate(): Promise<{ pdf_render_pool_per_s: number }> {
  const pool = new PdfRenderPool(availableParallelism());
  try {
    // Warm-up: threads started, code compiled, the labels' layouts cached.
    await Promise.all(Array.from({ length: 100 }, (_, i) => pool.render(billedInvoice(RENDERED + i))));
    const documents = Array.from({ length: RENDERED }, (_, i) => billedInvoice(i));
    let bytes = 0;
    const seconds = await timed(async () => {
      for (const pdf of await Promise.all(documents.map((document) => pool.render(document)))) bytes += pdf.length;
    });
    if (bytes < RENDERED * 30_000) throw new Error(`rendered ${bytes} bytes for ${RENDERED} invoices`);
    return { pdf_render_pool_per_s: Math.round(RENDERED / seconds) };
  } finally {
    await pool.close();
  }
}

/**
 * What one such PDF costs: 500 of them rendered one after another in this thread after 50
 * warm-ups, each in a task of its own as in a render thread, as the process's CPU time per invoice
 * (garbage collection included). The pool's rate above is at most the cores divided by this.
 */
async function renderCost(): Promise<{ pdf_render_cpu_ms: number }> {
  for (let i = 0; i < 50; i++) await renderInOwnTask(billedInvoice(2 * RENDERED + i));
  const documents = Array.from({ length: 500 }, (_, i) => billedInvoice(3 * RENDERED + i));
  const before = process.cpuUsage();
  for (const document of documents) await renderInOwnTask(document);
  const { user, system } = process.cpuUsage(before);
  return { pdf_render_cpu_ms: Number(((user + system) / 1000 / documents.length).toFixed(2)) };
}

const RUN_PAYMENTS = 10_000;

/**
 * A direct debit run of 10,000 pending prepayments (10 per billed contract, each customer with a
 * mandate, written with SQL), its creation and its pain.008 file through the API; the baseline is
 * reading the same payments with their methods as JSON straight from PostgreSQL in the same run.
 */
async function paymentRunRates(api: Api, url: string, accountId: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into payment_methods (account_id, id, customer_id, type, account_holder, iban, bic, mandate_reference, mandate_signed_at, is_default, created_at, updated_at)
       select c.account_id, gen_random_uuid(), c.id, 'sepa_direct_debit', 'Jürgen Müller & Söhne', 'DE89370400440532013000', 'COBADEFFXXX', 'M-' || left(c.id::text, 8), '2026-01-01', true, now(), now()
         from customers c where c.account_id = $1 and not exists (select 1 from payment_methods m where m.account_id = c.account_id and m.customer_id = c.id)`,
      [accountId],
    );
    const contracts = (await client.query(`select id from contracts where account_id = $1 order by id limit ${RUN_PAYMENTS / 10}`, [accountId])).rows.map((r) => r.id as string);
    if (contracts.length * 10 !== RUN_PAYMENTS) throw new Error(`payment run bench needs ${RUN_PAYMENTS / 10} contracts, found ${contracts.length}`);
    await client.query(
      `insert into payments (account_id, id, contract_id, amount, type, state, due_date, created_at, updated_at)
       select $1, gen_random_uuid(), c, 6500, 'prepayment', 'pending', date '2020-01-01' + n, now(), now()
         from unnest($2::uuid[]) as c, generate_series(0, 9) as n`,
      [accountId, contracts],
    );
    await client.query('analyze');
    const baselineSeconds = await timed(async () => {
      const { rows } = await client.query(
        `select json_agg(json_build_object('id', p.id, 'amount', p.amount, 'iban', m.iban, 'mandate', m.mandate_reference, 'name', m.account_holder)) as data
           from payments p join contracts c on c.account_id = p.account_id and c.id = p.contract_id
           join payment_methods m on m.account_id = c.account_id and m.customer_id = c.customer_id
          where p.account_id = $1 and p.state = 'pending' and p.type = 'prepayment' and p.due_date < '2020-02-01'`,
        [accountId],
      );
      if (rows[0].data.length !== RUN_PAYMENTS) throw new Error(`baseline read ${rows[0].data.length} payments`);
    });
    let run: Record<string, any> = {};
    const createSeconds = await timed(async () => {
      run = await created(api, '/v1/payment-runs', { type: 'direct_debit', dueUntil: '2020-01-31' });
    });
    if (run.counts.payments !== RUN_PAYMENTS) throw new Error(`payment run took ${run.counts.payments} payments: ${JSON.stringify(run).slice(0, 500)}`);
    let bytes = 0;
    const fileSeconds = await timed(async () => {
      const response = await api.get(`/v1/payment-runs/${run.id}/file`);
      if (response.status !== 200) throw new Error(`payment run file: ${response.status}`);
      bytes = String(response.body).length;
    });
    if (bytes < RUN_PAYMENTS * 500) throw new Error(`payment run file of ${bytes} bytes`);
    return {
      payment_run_create_payments_per_s: Math.round(RUN_PAYMENTS / createSeconds),
      payment_run_file_payments_per_s: Math.round(RUN_PAYMENTS / fileSeconds),
      payment_rows_json_read_per_s: Math.round(RUN_PAYMENTS / baselineSeconds),
    };
  } finally {
    await client.end();
  }
}

/**
 * Rounds of load: after a warm-up of each target, 5 rounds of 5 s each, alternating (http-load.ts).
 * After a 2 s warm-up the service's first round was its slowest in 4 of 5 runs here (its many
 * functions compile later than a bare app's few), and this machine's speed swings for tens of
 * seconds: 6 s of warm-up and 5 rounds make the median less a matter of when the run started.
 */
const LOAD_ROUNDS = 5;
const LOAD_SECONDS = 5;
const WARM_UP_SECONDS = 6;

/**
 * `GET /v1/sites/{id}` with the bearer token at 16 connections, against a bare Express 5 app in its
 * own process (bare-express.ts) that answers the same path with the body the service answered for
 * the site: the median requests per second of each and their ratio. Then the service alone at one
 * connection for 3 s: autocannon's median latency.
 */
async function restReadRates(api: Api, service: { baseUrl: string; pid: number }, siteId: string): Promise<Record<string, number>> {
  const path = `/v1/sites/${siteId}`;
  const answer = await api.get(path);
  if (answer.status !== 200 || answer.body.id !== siteId) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  const bare = await startBareExpress(JSON.stringify(answer.body));
  try {
    const same = await new Api(bare.baseUrl).get(path);
    if (same.status !== 200 || JSON.stringify(same.body) !== JSON.stringify(answer.body)) throw new Error(`bare Express answered ${same.status} ${JSON.stringify(same.body).slice(0, 300)}`);
    // The same request bytes to both, token included (the bare app ignores it).
    const on = (target: { baseUrl: string; pid: number }, seconds: number, connections = 16) => () =>
      load({ baseUrl: target.baseUrl, targetPid: target.pid, connections, seconds, request: { path }, headers: { authorization: `Bearer ${api.token}` } });
    await on(service, WARM_UP_SECONDS)();
    await on(bare, WARM_UP_SECONDS)();
    const rates = await alternate('rest GET /v1/sites/{id}', { service: on(service, LOAD_SECONDS), express: on(bare, LOAD_SECONDS) }, LOAD_ROUNDS);
    const single = await load({ baseUrl: service.baseUrl, connections: 1, seconds: 3, request: { path }, headers: { authorization: `Bearer ${api.token}` }, exactLatency: true });
    return {
      rest_get_per_s: Math.round(rates.service),
      express_get_per_s: Math.round(rates.express),
      rest_get_vs_express_ratio: Number((rates.service / rates.express).toFixed(3)),
      rest_get_p50_ms: Number(single.p50Ms.toFixed(2)),
    };
  } finally {
    await bare.stop();
  }
}

/** The page: 100 contracts on one site, each with its customer and 3 meters through contract meters. */
const PAGE_CONTRACTS = 100;
const PAGE_METERS = 3;

/** What a page must show: per contract its customer, the customer's last name and its meters (sorted). */
type Page = Map<string, { customerId: string; lastName: string; meterIds: string[] }>;

/**
 * The page's site over the API, 20 contracts at a time (as billedSites builds its sites): per
 * contract a customer, the contract and 3 meters, each with its contract meter from 2026-01-01.
 */
async function contractsPageFixture(api: Api): Promise<{ siteId: string; page: Page }> {
  const site = await created(api, '/v1/sites', { ...SITE, name: 'Contracts page' });
  const product = await created(api, '/v1/electricity-products', { name: 'Contracts page' });
  const page: Page = new Map();
  await inChunks(
    Array.from({ length: PAGE_CONTRACTS }, (_, c) => c),
    20,
    async (c) => {
      const customer = await created(api, '/v1/customers', { lastName: `Kunde ${c}`, address: { line1: `Hausweg ${c}`, ...SITE.address } });
      const contract = await created(api, '/v1/contracts', { customerId: customer.id, electricityProductId: product.id, siteId: site.id, dunningBlock: false, startDate: '2026-01-01', number: `P-${c}` });
      const meterIds: string[] = [];
      for (let m = 0; m < PAGE_METERS; m++) {
        const meter = await created(api, '/v1/meters', { siteId: site.id, direction: 'consumer', identifier: `P-${c}-${m}`, measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
        await created(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
        meterIds.push(meter.id);
      }
      page.set(contract.id, { customerId: customer.id, lastName: customer.lastName, meterIds: meterIds.sort() });
    },
  );
  return { siteId: site.id, page };
}

/** Throws unless `seen` is exactly `expected`: every contract, its customer, last name and meters. */
function expectPage(what: string, seen: Page, expected: Page): void {
  const plain = (page: Page) => JSON.stringify([...page.entries()].sort(([a], [b]) => a.localeCompare(b)));
  if (plain(seen) !== plain(expected)) throw new Error(`${what} page is not the fixture: ${plain(seen).slice(0, 500)}`);
}

const CONTRACTS_PAGE_QUERY = `query Page($siteId: ID!) {
  contracts(limit: ${PAGE_CONTRACTS}, siteId: $siteId) { data { id customer { id lastName } meters(limit: 10) { id } } }
}`;

/**
 * A page of 100 contracts with each one's customer (id, last name) and meters (ids), as a partner
 * reads it: over GraphQL one request (CONTRACTS_PAGE_QUERY, its answer compared byte for byte with
 * the first one, checked against the fixture), over REST as few as REST allows:
 *   1   GET /v1/contracts?limit=100&siteId=…
 *   1   GET /v1/contract-meters?siteId=…&limit=1000 per site of the page (here 1: one site; its
 *       contract meters are the page's, 300; a partner would filter by contractId, 100 requests,
 *       when the page's sites held many more contracts than the page)
 *   100 GET /v1/customers/{id}, one per customer: the customer list has no id filter (only limit
 *       and offset), and paging through every customer of the account costs with its size
 * = 102 requests per page, each connection one page after the other, the ids taken from the
 * contracts' answer as a partner's client would. Pages per second at 8 connections, the median of
 * LOAD_ROUNDS alternating rounds of LOAD_SECONDS each.
 */
async function contractsPageRates(api: Api, service: { baseUrl: string; pid: number }): Promise<Record<string, number>> {
  const { siteId, page } = await contractsPageFixture(api);
  const graphqlBody = JSON.stringify({ query: CONTRACTS_PAGE_QUERY, variables: { siteId } });
  const graphqlHeaders = { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' };
  // The answer's raw text: each answer under load must be byte for byte the same (a string comparison).
  const answerText = async () => {
    const response = await fetch(`${service.baseUrl}/graphql`, { method: 'POST', headers: graphqlHeaders, body: graphqlBody });
    const text = await response.text();
    if (response.status !== 200 || JSON.parse(text).errors) throw new Error(`graphql page: ${response.status} ${text.slice(0, 500)}`);
    return text;
  };
  const graphqlAnswer = await answerText();
  if ((await answerText()) !== graphqlAnswer) throw new Error('graphql page: two answers differ');
  const fromGraphql: Page = new Map(
    JSON.parse(graphqlAnswer).data.contracts.data.map((c: any) => [c.id, { customerId: c.customer.id, lastName: c.customer.lastName, meterIds: c.meters.map((m: any) => m.id).sort() }]),
  );
  expectPage('GraphQL', fromGraphql, page);

  // The REST page once over fetch, checked against the fixture; then the same requests under load.
  const contracts = await api.get(`/v1/contracts?limit=${PAGE_CONTRACTS}&siteId=${siteId}`);
  const assignments = await api.get(`/v1/contract-meters?siteId=${siteId}&limit=1000`);
  if (contracts.status !== 200 || assignments.status !== 200 || contracts.body.total !== PAGE_CONTRACTS || assignments.body.total > 1000) {
    throw new Error(`rest page: ${contracts.status} ${assignments.status} ${contracts.body.total} contracts ${assignments.body.total} contract meters`);
  }
  const customers = await Promise.all(contracts.body.data.map((c: any) => api.get(`/v1/customers/${c.customerId}`)));
  const fromRest: Page = new Map(
    contracts.body.data.map((c: any, i: number) => {
      if (customers[i]!.status !== 200) throw new Error(`rest page: customer ${c.customerId} ${customers[i]!.status}`);
      const meterIds = assignments.body.data.filter((a: any) => a.contractId === c.id).map((a: any) => a.meterId as string);
      return [c.id, { customerId: c.customerId, lastName: customers[i]!.body.lastName, meterIds: [...new Set(meterIds)].sort() }];
    }),
  );
  expectPage('REST', fromRest, page);

  // Under load each connection's context holds the ids its last contracts answer named.
  let incompletePages = 0;
  const sequence = [
    {
      path: `/v1/contracts?limit=${PAGE_CONTRACTS}&siteId=${siteId}`,
      onResponse: (status: number, body: string, context: any) => {
        const data = status === 200 ? (JSON.parse(body).data as any[]) : [];
        if (data.length !== PAGE_CONTRACTS) incompletePages++;
        context.siteIds = [...new Set(data.map((c) => c.siteId as string))];
        context.customerIds = [...new Set(data.map((c) => c.customerId as string))];
      },
    },
    { setupRequest: (request: any, context: any) => ({ ...request, path: `/v1/contract-meters?siteId=${context.siteIds[0]}&limit=1000` }) },
    ...Array.from({ length: PAGE_CONTRACTS }, (_, i) => ({ setupRequest: (request: any, context: any) => ({ ...request, path: `/v1/customers/${context.customerIds[i]}` }) })),
  ];
  const headers = { authorization: `Bearer ${api.token}` };
  const targets = {
    graphql: (seconds: number) => () =>
      load({ baseUrl: service.baseUrl, targetPid: service.pid, connections: 8, seconds, request: { method: 'POST', path: '/graphql', body: graphqlBody }, headers: graphqlHeaders, verifyBody: (body) => body === graphqlAnswer }),
    rest: (seconds: number) => () => load({ baseUrl: service.baseUrl, targetPid: service.pid, connections: 8, seconds, sequence, headers, requestsPerUnit: sequence.length }),
  };
  await targets.graphql(WARM_UP_SECONDS)();
  await targets.rest(WARM_UP_SECONDS)();
  const rates = await alternate('contracts page', { graphql: targets.graphql(LOAD_SECONDS), rest: targets.rest(LOAD_SECONDS) }, LOAD_ROUNDS);
  if (incompletePages > 0) throw new Error(`rest page: ${incompletePages} contracts answers without ${PAGE_CONTRACTS} contracts`);
  return { graphql_contracts_page_per_s: Number(rates.graphql.toFixed(1)), rest_contracts_page_per_s: Number(rates.rest.toFixed(1)) };
}

/** The scenarios in the order they run; `--only` picks some (payment runs need the bill run's contracts, so both are `billing`). */
const SCENARIOS = {
  ingest: 'meter data over HTTP and by COPY, and what it takes to store',
  aggregate: 'the P1M aggregation of one meter-year',
  balancing: 'balancing a site-year and a new day',
  webhooks: 'webhook deliveries and the outbox write overhead',
  billing: 'a bill run of 1,000 contracts, a render pool on 1,000 such invoices, and a direct debit run of 10,000 payments',
  pdf: 'the invoice PDFs of billing alone: a render pool on 1,000 bill-run-like invoices, and the CPU one of them costs',
  rest: 'GET /v1/sites/{id} against bare Express',
  graphql: 'a page of 100 contracts over GraphQL and over REST',
} as const;
type Scenario = keyof typeof SCENARIOS;

/** `--only rest,graphql` (or `--only=rest,graphql`, repeatable): those scenarios; none given, all. */
function scenariosOf(argv: readonly string[]): Set<Scenario> {
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--only' && i + 1 < argv.length) names.push(...argv[++i]!.split(','));
    else if (arg.startsWith('--only=')) names.push(...arg.slice('--only='.length).split(','));
    else throw new Error(`unknown argument ${arg}; usage: npm run bench [-- --only ${Object.keys(SCENARIOS).join(',')}]`);
  }
  const unknown = names.filter((name) => !(name in SCENARIOS));
  if (unknown.length > 0) {
    const list = Object.entries(SCENARIOS).map(([name, what]) => `  ${name}: ${what}`).join('\n');
    throw new Error(`unknown scenario ${unknown.join(', ')}; --only takes a comma-separated list of:\n${list}`);
  }
  return new Set((names.length > 0 ? names : Object.keys(SCENARIOS)) as Scenario[]);
}

async function main(): Promise<void> {
  const only = scenariosOf(process.argv.slice(2));
  const name = `ebbs_bench_${Date.now()}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = databaseUrl(name);
  // The service balances nothing itself: the balancing figures come from a worker started later.
  const started = await startProcess('serve', url, /listening on (http:\/\/\S+)/, { WORKER: 'off', ...WEBHOOK_ENV });
  const service = { baseUrl: started.ready, pid: started.pid, stop: started.stop };
  try {
    const account = (await parseCli(['account', 'create', '--company-name', 'Bench', '--email', 'bench@example.test']).run(loadConfig({ DATABASE_URL: url, JWT_SECRET: SECRET, WEBHOOK_SECRET_KEY: SECRET }))).output as Record<string, string>;
    const grant = await new Api(service.baseUrl).post('/v1/oauth', { grantType: 'api_token', token: account.apiToken });
    const api = new Api(service.baseUrl, grant.body.accessToken);
    // What issuing invoices and creating direct debit files require of the account.
    const profile = await api.patch(`/v1/accounts/${account.accountId}`, {
      address: { line1: 'Energieweg 5', locality: 'Berlin', postCode: '10117', country: 'DE' },
      vatId: 'DE136695976',
      contact: { email: 'service@bench.test', phone: '+49 30 123456' },
      bankAccount: { accountHolder: 'Bench GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      sepaCreditorId: 'DE98ZZZ09999999999',
    });
    if (profile.status !== 200) throw new Error(`account profile: ${JSON.stringify(profile.body).slice(0, 300)}`);
    const site = (await api.post('/v1/sites', { name: 'Bench', type: 'unbalanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } })).body;
    const fourClients = await Promise.all(Array.from({ length: 4 }, () => new Api(service.baseUrl, grant.body.accessToken)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const figures: Record<string, number> = {};
    const meterIds: string[] = [];

    if (only.has('ingest')) {
      for (let i = 0; i < 420; i++) {
        const meter = await api.post('/v1/meters', { siteId: site.id, direction: 'consumer', identifier: `B-${i}`, measuring: 'load_profile_accurate', startDate: '2020-01-01T00:00:00.000Z' });
        meterIds.push(meter.body.id);
      }
      const day = (n: number) => Date.parse('2021-01-01T00:00:00.000Z') + n * DAY;
      // Warm-up (JIT, connection pool, plan caches), then each scenario writes days no other one touches.
      await ingestRate([api], [[upload(meterIds, 10_000, day(0))]]);
      const at500 = await ingestRate([api], [Array.from({ length: 80 }, (_, i) => upload(meterIds.slice(5 * (i % 84), 5 * (i % 84) + 6), 500, day(10 + Math.floor(i / 84))))]);
      const at10k = await ingestRate([api], [Array.from({ length: 20 }, (_, i) => upload(meterIds, 10_000, day(20 + 2 * i)))]);
      const at10kx4 = await ingestRate(fourClients, fourClients.map((_, c) => Array.from({ length: 8 }, (_, i) => upload(meterIds, 10_000, day(100 + 2 * (c * 8 + i))))));

      const copyRows = 2_000;
      const copySeconds = await timed(async () => {
        const rows = Array.from({ length: copyRows }, (_, r) => {
          const values = Array.from({ length: 96 }, (_, s) => (r * 96 + s) % 1000).join(',');
          return `${account.accountId}\t${meterIds[r % meterIds.length]}\t${new Date(day(500 + Math.floor(r / meterIds.length))).toISOString().slice(0, 10)}\t{${values}}\n`;
        });
        await pipeline(Readable.from(rows), client.query(copyFrom('COPY measurement_days (account_id, meter_id, day, "values") FROM STDIN')));
      });
      const copyRate = Math.round((copyRows * 96) / copySeconds);
      Object.assign(figures, {
        ingest_http_500_values_per_s: at500,
        ingest_http_10k_values_per_s: at10k,
        ingest_http_10k_4clients_values_per_s: at10kx4,
        ingest_copy_values_per_s: copyRate,
        ingest_http_10k_vs_copy_ratio: Number((at10k / copyRate).toFixed(3)),
      });
    }

    if (only.has('aggregate')) {
      // One meter-year, then the P1M aggregation over it (median of 15); a meter of its own when ingest did not run.
      const yearMeter =
        meterIds[0] ?? (await created(api, '/v1/meters', { siteId: site.id, direction: 'consumer', identifier: 'B-0', measuring: 'load_profile_accurate', startDate: '2020-01-01T00:00:00.000Z' })).id;
      for (let d = 0; d < 365; d += 100) {
        await api.post('/v1/measurements', upload([yearMeter], Math.min(100, 365 - d) * 96, Date.parse('2025-12-31T23:00:00.000Z') - (Date.parse('2025-12-31T23:00:00.000Z') % DAY) + d * DAY), { 'content-type': 'application/json' });
      }
      const durations: number[] = [];
      for (let i = 0; i < 15; i++) {
        durations.push(
          await timed(async () => {
            const response = await api.get(`/v1/aggregated-measurements?meterId=${yearMeter}&startDateTime=2025-12-31T23:00:00.000Z&endDateTime=2026-12-31T23:00:00.000Z&interval=P1M`);
            if (response.status !== 200) throw new Error(JSON.stringify(response.body));
          }),
        );
      }
      figures.aggregate_meter_year_p1m_ms = Number((median(durations) * 1000).toFixed(1));
    }

    if (only.has('balancing')) Object.assign(figures, await balanceSiteYear(api, url));

    if (only.has('webhooks')) {
      const receiver = await startReceiver();
      figures.webhook_deliveries_per_s = await webhookDeliveries(api, url, receiver);
      figures.outbox_write_overhead_pct = await outboxWriteOverhead(api, fourClients, receiver);
      await receiver.close();
    }

    if (only.has('ingest')) {
      // What everything ingested so far takes to store (with only some scenarios, what those ingested).
      await client.query('vacuum analyze measurement_days');
      const { rows } = await client.query(
        `select pg_total_relation_size('measurement_days') as bytes,
                (select sum(cardinality(array_remove("values", null))) from measurement_days) as values`,
      );
      figures.bytes_per_value = Number((Number(rows[0].bytes) / Number(rows[0].values)).toFixed(2));
      figures.stored_values = Number(rows[0].values);
    }
    await client.end();
    // After the storage figures: its month of data would change them.
    if (only.has('billing')) Object.assign(figures, await billRunRates(api, url, account.accountId!));
    // Issuing's baseline, and on its own a quick measure of the renderer.
    if (only.has('billing') || only.has('pdf')) {
      Object.assign(figures, await renderPoolRate());
      Object.assign(figures, await renderCost());
    }
    if (only.has('billing')) Object.assign(figures, await paymentRunRates(api, url, account.accountId!));
    // Reads under load, last: they write nothing the figures above depend on.
    if (only.has('rest')) Object.assign(figures, await restReadRates(api, service, site.id));
    if (only.has('graphql')) Object.assign(figures, await contractsPageRates(api, service));

    // The keys in the order of the scenarios' figures, as the full run always printed them.
    const order = [
      'ingest_http_500_values_per_s',
      'ingest_http_10k_values_per_s',
      'ingest_http_10k_4clients_values_per_s',
      'ingest_copy_values_per_s',
      'ingest_http_10k_vs_copy_ratio',
      'bytes_per_value',
      'stored_values',
      'aggregate_meter_year_p1m_ms',
    ];
    const summary = { ...Object.fromEntries(order.filter((key) => key in figures).map((key) => [key, figures[key]])), ...figures, run_id: randomUUID() };
    console.log(JSON.stringify(summary));
  } finally {
    await service.stop();
    // BENCH_KEEP_DATABASE=1 leaves the database for a look at its plans (EXPLAIN) afterwards.
    if (process.env.BENCH_KEEP_DATABASE === '1') console.error(`kept database ${name}`);
    else await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

await main();
