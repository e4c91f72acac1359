import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { TEST_JWT_SECRET, TEST_WEBHOOK_KEY } from '../support/app.js';
import { numberingYearOf } from '../support/billing.js';
import { createTestDatabase, queryRows } from '../support/database.js';
import { create, sellerProfile } from '../support/fixtures.js';
import { Api } from '../support/http.js';
import { listening, runEbbs, spawnEbbs, watch, type Watched } from '../support/process.js';

const QH = 15 * 60 * 1000;
/** October 2026 in Berlin: 31 days, the 25th 25 hours long (DST ends), so 2,980 quarter hours. */
const MONTH = { from: Date.parse('2026-09-30T22:00:00.000Z'), to: Date.parse('2026-10-31T23:00:00.000Z') };
const SLOTS = (MONTH.to - MONTH.from) / QH;
const LAST_QH = new Date(MONTH.to - QH).toISOString();
const CONSUMERS = 10;
/** Quarter hours per upload: two days of one meter, so a month of the site is 176 requests. */
const CHUNK = 192;
/** Uploads in flight at once, spread over both API processes. */
const CONCURRENCY = 8;
const REDIS_URL = 'redis://127.0.0.1:6379';

/** Wh in quarter hour `slot` of the month: a solar-like producer (nothing at night) and consumers that vary. */
const producerWh = (slot: number) => {
  const hour = ((MONTH.from + slot * QH) / 3_600_000) % 24; // UTC hours
  return hour < 5 || hour >= 17 ? 0 : Math.round(5000 * Math.sin((Math.PI * (hour - 5)) / 12));
};
const consumerWh = (consumer: number, slot: number) => 100 + 40 * consumer + ((slot * 7 + consumer * 13) % 11) * 25;

/** The project's Api, counting its requests (every one is charged to the client's rate budget). */
class CountingApi extends Api {
  requests = 0;
  override request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    this.requests++;
    return super.request<T>(method, path, body, headers);
  }
}

interface Running extends Watched {
  name: string;
  child: ChildProcess;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const result = await probe().catch((error: unknown) => ((last = error), undefined));
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `tasks` with at most `limit` of them at once. */
async function pooled(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}

describe('scale-out: two API processes and two workers on one database', () => {
  it('onboards, ingests, balances and bills a month through both APIs: one invoice per contract, gap-free numbers, every quarter hour balanced once', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    const redisPrefix = `ebbs-scale-out-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      RATE_LIMIT_PER_MINUTE: '1000000',
      OAUTH_RATE_LIMIT_PER_MINUTE: '10000',
      DB_POOL_SIZE: '4',
      LOG_LEVEL: 'warn',
    };
    const workerEnv = {
      LOG_LEVEL: 'info',
      QUEUE_POLL_SECONDS: '0.5',
      BILL_RUN_SWEEP_SECONDS: '1',
      BALANCING_SWEEP_SECONDS: '1',
      JOB_RETRY_DELAY_SECONDS: '1',
      BILL_RUN_BATCH_SIZE: '3',
    };
    const processes: Running[] = [];
    const started = performance.now();
    try {
      // All four spawned at once (so that every one is stopped in `finally`), then awaited.
      const spawned = (name: string, args: string[], extra: Record<string, string>): Running => {
        const child = spawnEbbs(args, { ...env, ...extra });
        const running = { name, child, ...watch(child) };
        processes.push(running);
        return running;
      };
      const apiProcesses = ['api-1', 'api-2'].map((name) => spawned(name, ['serve'], { PORT: '0', HOST: '127.0.0.1', WORKER: 'off' }));
      const workers = ['worker-1', 'worker-2'].map((name) => spawned(name, ['worker'], workerEnv));
      const [url1, url2] = await Promise.all(apiProcesses.map(async (p) => (await listening(p.child, p.exited)).url));
      // A worker is ready once it says so (its queues created and polled).
      await Promise.all(workers.map((w) => w.printed('"msg":"worker started"', 30_000)));
      const startup = performance.now() - started;

      const account = await runEbbs(['account', 'create', '--company-name', 'Scale-out GmbH', '--email', 'ops@scale-out.test'], env);
      expect(account.code, account.stderr).toBe(0);
      const { apiToken, accountId } = JSON.parse(account.stdout) as { apiToken: string; accountId: string };
      const grant = await new Api(url2!).post('/v1/oauth', { grantType: 'api_token', token: apiToken });
      expect(grant.status, JSON.stringify(grant.body)).toBe(201);
      const apis = [new CountingApi(url1!, grant.body.accessToken), new CountingApi(url2!, grant.body.accessToken)] as const;
      let turn = 0;
      /** Each call the other API process. */
      const api = () => apis[turn++ % 2]!;
      expect((await api().patch(`/v1/accounts/${accountId}`, sellerProfile)).status).toBe(200);

      // Onboarding, every request to the other process: a balanced site with a producer and
      // consumers of mixed priorities, a product with VAT and prices, a contract per consumer.
      const onboardingStarted = performance.now();
      const site = await create(api(), '/v1/sites', { name: 'Mieterstrom Scale-out', type: 'balanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } });
      const meter = (direction: string, n: number) =>
        create(api(), '/v1/meters', { siteId: site.id, direction, identifier: `1EMH-SCALE-${n}`, measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
      const producer = await meter('producer', 0);
      await create(api(), '/v1/meter-balancing-settings', { siteId: site.id, meterId: producer.id, balancing: 'participant', startDate: '2026-01-01', priority: null });
      const vat = await create(api(), '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
      const product = await create(api(), '/v1/electricity-products', { name: 'Mieterstrom' });
      const group = await create(api(), '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
      for (const [kind, versions] of Object.entries({
        local_energy: [['2026-01-01', '0.200000'], ['2026-10-11', '0.250000']],
        grid_energy: [['2026-01-01', '0.300000']],
        base_fee: [['2026-01-01', '12.000000']],
      })) {
        const component = await create(api(), '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
        for (const [validFrom, amount] of versions) await create(api(), '/v1/prices', { priceComponentId: component.id, validFrom, amount });
      }
      const consumers: Record<string, any>[] = [];
      const contracts: Record<string, any>[] = [];
      for (let c = 0; c < CONSUMERS; c++) {
        const consumer = await meter('consumer', c + 1);
        // Priorities 1 to 3 and some without one: ties and proportional shares.
        await create(api(), '/v1/meter-balancing-settings', { siteId: site.id, meterId: consumer.id, balancing: 'participant', startDate: '2026-01-01', priority: c < 6 ? (c % 3) + 1 : null });
        const customer = await create(api(), '/v1/customers', { lastName: `Mieter ${c + 1}`, address: { line1: `Hausweg ${c + 1}`, locality: 'Berlin', postCode: '10115', country: 'DE' } });
        const contract = await create(api(), '/v1/contracts', { customerId: customer.id, electricityProductId: product.id, siteId: site.id, dunningBlock: false, startDate: '2026-01-01', number: `C-${c + 1}` });
        await create(api(), '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumer.id, startDate: '2026-01-01' });
        consumers.push(consumer);
        contracts.push(contract);
      }
      const onboarding = performance.now() - onboardingStarted;

      // Ingest: a month per meter in two-day uploads, interleaved across meters so that balancing
      // meets partial data on the way, CONCURRENCY at once and alternately to both processes.
      const meters = [{ id: producer.id as string, wh: producerWh }, ...consumers.map((m, c) => ({ id: m.id as string, wh: (slot: number) => consumerWh(c, slot) }))];
      const uploads: { meterId: string; timestamp: string; value: number }[][] = [];
      for (let first = 0; first < SLOTS; first += CHUNK) {
        for (const { id, wh } of meters) {
          uploads.push(
            Array.from({ length: Math.min(CHUNK, SLOTS - first) }, (_, i) => ({ meterId: id, timestamp: new Date(MONTH.from + (first + i) * QH).toISOString(), value: wh(first + i) / 1000 })),
          );
        }
      }
      const refused: string[] = [];
      const ingestStarted = performance.now();
      await pooled(
        uploads.map((measurements) => async () => {
          const response = await api().post('/v1/measurements', { measurements });
          if (response.status !== 201) refused.push(`${response.status} ${JSON.stringify(response.body)}`);
        }),
        CONCURRENCY,
      );
      const ingest = performance.now() - ingestStarted;
      expect(refused).toEqual([]);

      const balanceStarted = performance.now();
      const status = await until(`balancing of ${site.id} did not finish`, 40_000, async () => {
        const body = (await api().get(`/v1/sites/${site.id}/balancing-status`)).body;
        const done = body.pendingRanges === 0 && body.lastBalancedInterval !== null && body.lastBalancedInterval >= LAST_QH && !body.jobs.created && !body.jobs.active;
        return done ? body : undefined;
      });
      const balance = performance.now() - balanceStarted;
      expect(status.incompleteIntervals).toBe(0);

      // The bill run: created on one process, completed on the other, polled on both.
      const run = async (state: string, id: string) => {
        const body = await until(`bill run ${id} did not reach ${state}`, 30_000, async () => {
          const found = (await api().get(`/v1/bill-runs/${id}`)).body;
          return found.state === state || found.state === 'failed' ? found : undefined;
        });
        expect(body.state, JSON.stringify(body)).toBe(state);
        return body;
      };
      const createStarted = performance.now();
      const posted = await apis[0].post('/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      const created = await run('created', posted.body.id);
      const billRunCreate = performance.now() - createStarted;
      expect(created).toMatchObject({ counts: { total: CONSUMERS, contracts: CONSUMERS, invoices: CONSUMERS, issued: 0, errors: 0 }, errors: [] });
      const completeStarted = performance.now();
      const completing = await apis[1].post(`/v1/bill-runs/${posted.body.id}/complete`);
      expect(completing.status, JSON.stringify(completing.body)).toBe(202);
      const completed = await run('completed', posted.body.id);
      const billRunComplete = performance.now() - completeStarted;
      expect(completed.counts).toEqual({ total: CONSUMERS, contracts: CONSUMERS, invoices: CONSUMERS, issued: CONSUMERS, errors: 0 });

      // Exactly one invoice per contract, numbered INV-YYYY-000001..N without gaps, over the API and in the database.
      const listed = (await apis[1].get(`/v1/invoices?billRunId=${posted.body.id}&limit=100`)).body;
      const year = numberingYearOf(listed.data[0]);
      const expectedNumbers = Array.from({ length: CONSUMERS }, (_, i) => `INV-${year}-${String(i + 1).padStart(6, '0')}`);
      expect(listed.total).toBe(CONSUMERS);
      expect(listed.data.map((i: Record<string, string>) => i.contractId).sort()).toEqual(contracts.map((c) => c.id).sort());
      expect(listed.data.map((i: Record<string, string>) => i.number).sort()).toEqual(expectedNumbers);
      expect(listed.data.every((i: Record<string, string>) => i.state === 'issued')).toBe(true);
      const invoices = await queryRows<{ contract_id: string; number: string | null; state: string; kind: string }>(database.url, 'select contract_id, number, state, kind from invoices where account_id = $1', [accountId]);
      expect(invoices.map((i) => [i.kind, i.state])).toEqual(Array(CONSUMERS).fill(['invoice', 'issued']));
      expect(new Set(invoices.map((i) => i.contract_id)).size).toBe(CONSUMERS);
      expect(invoices.map((i) => i.number).sort()).toEqual(expectedNumbers);
      const counters = await queryRows(database.url, 'select kind, year, last_number from invoice_counters where account_id = $1', [accountId]);
      expect(counters).toEqual([{ kind: 'invoice', year, last_number: CONSUMERS }]);

      // One balancing result per (site, UTC day), one flow row per (day, kind, debitor, creditor).
      expect(await queryRows(database.url, 'select site_id, day from balancing_days group by 1, 2 having count(*) > 1')).toEqual([]);
      expect(await queryRows(database.url, 'select site_id, day, kind, debitor_id, creditor_id from balance_days group by 1, 2, 3, 4, 5 having count(*) > 1')).toEqual([]);
      // Every quarter hour of the month balanced, nothing outside it, nothing incomplete.
      const [states] = await queryRows<{ balanced: string; distinct_balanced: string; incomplete: string; outside: string; days: string }>(
        database.url,
        `select count(*) filter (where u.s = 1 and t.at >= $2 and t.at < $3) as balanced,
                count(distinct t.at) filter (where u.s = 1) as distinct_balanced,
                count(*) filter (where u.s = 0) as incomplete,
                count(*) filter (where u.s is not null and (t.at < $2 or t.at >= $3)) as outside,
                count(distinct d.day) as days
           from balancing_days d
           cross join lateral unnest(d.states) with ordinality as u(s, ord)
           cross join lateral (select (d.day::timestamp at time zone 'UTC') + (u.ord - 1) * interval '15 minutes' as at) t
          where d.site_id = $1`,
        [site.id, new Date(MONTH.from), new Date(MONTH.to)],
      );
      expect(states).toEqual({ balanced: String(SLOTS), distinct_balanced: String(SLOTS), incomplete: '0', outside: '0', days: '32' });

      // Per consumer and quarter hour, local + grid equals its consumption; per producer quarter
      // hour, local + feed-in equals its production (a quarter hour without production has no flow).
      const [energy] = await queryRows<Record<string, string>>(
        database.url,
        `with measured as (
           select m.meter_id, m.day, u.ord, u.v from measurement_days m cross join lateral unnest(m."values") with ordinality as u(v, ord)
            where m.account_id = $1 and u.v is not null
         ), flows as (
           select b.kind, b.debitor_id, b.creditor_id, b.day, u.ord, u.v from balance_days b cross join lateral unnest(b."values") with ordinality as u(v, ord)
            where b.site_id = $2 and u.v is not null
         ), supplied as (
           select debitor_id as meter_id, day, ord, sum(v) as v from flows where kind in ('local', 'grid') group by 1, 2, 3
         ), delivered as (
           select creditor_id as meter_id, day, ord, sum(v) as v from flows where kind in ('local', 'feed_in') group by 1, 2, 3
         ), consumption as (
           select * from measured where meter_id = any($3::uuid[])
         ), production as (
           select * from measured where meter_id = $4
         )
         select
           (select count(*) from consumption) as consumption_intervals,
           (select count(*) from production) as production_intervals,
           (select count(*) from consumption c full join supplied s using (meter_id, day, ord) where c.v is distinct from s.v) as consumption_mismatches,
           (select count(*) from production p full join delivered d using (meter_id, day, ord) where coalesce(p.v, 0) <> coalesce(d.v, 0)) as production_mismatches,
           (select coalesce(sum(v), 0) from consumption) as consumption_wh,
           (select coalesce(sum(v), 0) from production) as production_wh,
           (select coalesce(sum(v), 0) from flows where kind = 'local') as local_wh,
           (select coalesce(sum(v), 0) from flows where kind = 'grid') as grid_wh,
           (select coalesce(sum(v), 0) from flows where kind = 'feed_in') as feed_in_wh`,
        [accountId, site.id, consumers.map((c) => c.id), producer.id],
      );
      const e = Object.fromEntries(Object.entries(energy!).map(([key, value]) => [key, Number(value)]));
      let expectedConsumption = 0;
      let expectedProduction = 0;
      for (let slot = 0; slot < SLOTS; slot++) {
        expectedProduction += producerWh(slot);
        for (let c = 0; c < CONSUMERS; c++) expectedConsumption += consumerWh(c, slot);
      }
      expect(e).toMatchObject({ consumption_intervals: SLOTS * CONSUMERS, production_intervals: SLOTS, consumption_mismatches: 0, production_mismatches: 0, consumption_wh: expectedConsumption, production_wh: expectedProduction });
      expect(e.local_wh! + e.grid_wh!).toBe(expectedConsumption);
      expect(e.local_wh! + e.feed_in_wh!).toBe(expectedProduction);
      expect(e.local_wh).toBeGreaterThan(0);
      expect(e.grid_wh).toBeGreaterThan(0);
      expect(e.feed_in_wh).toBeGreaterThan(0);

      // What the invoices bill is what was balanced: local and grid kWh per contract.
      const billed = await queryRows<{ meter_id: string; kind: string; kwh: string }>(
        database.url,
        `select cm.meter_id, l.kind, sum(l.quantity::numeric / 10 ^ l.quantity_scale)::text as kwh
           from line_items l join invoices i on i.id = l.invoice_id join contract_meters cm on cm.contract_id = i.contract_id
          where i.bill_run_id = $1 and l.kind in ('local_energy', 'grid_energy') group by 1, 2`,
        [posted.body.id],
      );
      const balancedPerMeter = await queryRows<{ meter_id: string; kind: string; wh: string }>(
        database.url,
        `select b.debitor_id as meter_id, b.kind, sum(u.v)::text as wh from balance_days b cross join lateral unnest(b."values") as u(v)
          where b.site_id = $1 and b.kind in ('local', 'grid') group by 1, 2 having sum(u.v) > 0`,
        [site.id],
      );
      const asKwh = (rows: { meter_id: string; kind: string; value: number }[]) => rows.map((r) => `${r.meter_id} ${r.kind} ${r.value.toFixed(3)}`).sort();
      expect(asKwh(billed.map((r) => ({ meter_id: r.meter_id, kind: r.kind.replace('_energy', ''), value: Number(r.kwh) })))).toEqual(
        asKwh(balancedPerMeter.map((r) => ({ meter_id: r.meter_id, kind: r.kind, value: Number(r.wh) / 1000 }))),
      );

      // No job failed, no process logged an error, and the rate budget is one, shared through Redis.
      expect(await queryRows(database.url, "select name, state::text from pgboss.job where state = 'failed'")).toEqual([]);
      const remaining = async (index: 0 | 1) => Number((await apis[index].get('/v1/sites?limit=1')).headers.get('ratelimit-remaining'));
      const first = await remaining(0);
      expect([await remaining(1), await remaining(0), await remaining(1)]).toEqual([first - 1, first - 2, first - 3]);
      const redis = new Redis(REDIS_URL, { lazyConnect: true });
      try {
        await redis.connect();
        expect((await redis.keys(`${redisPrefix}:rate:clients*`)).length).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
      const logLines = (running: Running) =>
        running
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, any>);
      const errors = processes.flatMap((p) => logLines(p).filter((line) => line.level >= 50).map((line) => `${p.name}: ${JSON.stringify(line)}`));
      expect(errors).toEqual([]);
      const balancedBy = Object.fromEntries(workers.map((w) => [w.name, logLines(w).filter((line) => line.msg === 'site balanced').length]));
      const billRunLogsBy = Object.fromEntries(
        workers.map((w) => [w.name, logLines(w).filter((line) => line.billRunId === posted.body.id).map((line) => line.msg as string)]),
      );

      console.log(
        JSON.stringify({
          scaleOut: {
            apiProcesses: 2,
            workerProcesses: 2,
            contracts: CONSUMERS,
            meters: meters.length,
            quarterHours: SLOTS,
            measurementsIngested: uploads.reduce((sum, upload) => sum + upload.length, 0),
            ingestRequests: uploads.length,
            ingestConcurrency: CONCURRENCY,
            requestsPerApi: apis.map((a) => a.requests),
            startupMs: Math.round(startup),
            onboardingMs: Math.round(onboarding),
            ingestMs: Math.round(ingest),
            timeToBalanceMs: Math.round(balance),
            billRunCreateMs: Math.round(billRunCreate),
            billRunCompleteMs: Math.round(billRunComplete),
            balancingJobsPerWorker: balancedBy,
            billRunLogsPerWorker: billRunLogsBy,
            energyKwh: { consumption: e.consumption_wh! / 1000, production: e.production_wh! / 1000, local: e.local_wh! / 1000, grid: e.grid_wh! / 1000, feedIn: e.feed_in_wh! / 1000 },
            totalMs: Math.round(performance.now() - started),
          },
        }),
      );
    } finally {
      await Promise.all(
        processes.map(async (p) => {
          if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
          const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
          await p.exited;
          clearTimeout(timer);
        }),
      );
      await database.drop();
      const redis = new Redis(REDIS_URL, { lazyConnect: true });
      try {
        await redis.connect();
        const keys = await redis.keys(`${redisPrefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } catch {
        // Redis gone: its keys expire after the rate window anyway.
      } finally {
        redis.disconnect();
      }
    }
  }, 120_000);
});
