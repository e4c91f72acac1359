import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../app/config.js';
import { buildContainer, resolveServices } from '../../app/container.js';
import { openRuntime, type Runtime } from '../../app/runtime.js';
import { QUEUES, startWorker } from '../../app/worker.js';
import { WebhookDispatcher } from '../../core/webhooks/webhook-dispatcher.js';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { queryRows } from '../support/database.js';

const DAY = '2026-03-01T23:00:00.000Z';
const LAST_QH = '2026-03-02T22:45:00.000Z';
const FAST = { QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '1', JOB_RETRY_DELAY_SECONDS: '1' };

describe('balancing workers', () => {
  let app: TestApp;
  let a: SignedUp;
  let second: Runtime;
  let stopSecond: () => void;
  let services: ReturnType<typeof resolveServices>;

  beforeAll(async () => {
    app = await startTestApp(FAST);
    a = await app.signUp('A');
    const config = loadConfig({ DATABASE_URL: app.database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY, LOG_LEVEL: 'silent', DB_POOL_SIZE: '2', ...FAST });
    second = await openRuntime(config);
    await second.queue.start(QUEUES);
    const container = buildContainer({ ...second, refreshTokenTtlSeconds: 60 });
    services = resolveServices(container);
    const worker = { balancing: services.balancing, webhooks: container.resolve(WebhookDispatcher), billRuns: services.billRuns };
    stopSecond = (await startWorker({ ...second, ...worker, config, logger: pino({ level: 'silent' }) })).stop;
  });
  afterAll(async () => {
    stopSecond();
    await second.close();
    await app.close();
  });

  it('coalesces bursts per site and never runs two jobs of one site at once, with two workers', async () => {
    const sites = await Promise.all([0, 1, 2, 3].map(() => balancedSite(a.api, [null, 1])));
    // Each time a job of the queue starts, how many jobs of its key are active as it commits. The
    // timestamps pg-boss records cannot tell: a job's started_on is when its fetching statement
    // arrived, which under load can be some milliseconds before the previous job's completion,
    // although it fetched only after that completion committed.
    await queryRows(
      app.database.url,
      `create table job_starts (id uuid not null, key text not null, active integer not null);
       create function count_job_start() returns trigger language plpgsql as $$ begin
         insert into job_starts select new.id, new.singleton_key, count(*) from pgboss.job where name = new.name and singleton_key = new.singleton_key and state = 'active';
         return null;
       end $$;
       create constraint trigger count_job_start after update of state on pgboss.job deferrable initially deferred
         for each row when (new.name = 'balance-site' and new.state = 'active') execute function count_job_start();`,
    );
    // Jobs created from now on turn active after the trigger exists.
    const burstStart = (await queryRows<{ now: Date }>(app.database.url, 'select clock_timestamp() as now'))[0]!.now;
    // A burst: every site gets 12 uploads of two hours each, sent concurrently.
    await Promise.all(
      sites.flatMap(({ producer, consumers }) =>
        Array.from({ length: 12 }, (_, block) => {
          const slots = (values: ReturnType<typeof dayOfValues>) => values.slice(block * 8, block * 8 + 8);
          const upload = [slots(dayOfValues(producer.id, DAY, () => 1)), ...consumers.map((c) => slots(dayOfValues(c.id, DAY, () => 0.75)))].flat();
          return a.api.post('/v1/measurements', { measurements: upload });
        }),
      ),
    );
    for (const { site } of sites) expect((await waitForBalance(a.api, site.id, LAST_QH)).incompleteIntervals).toBe(0);

    const jobs = await queryRows<{ id: string; key: string }>(
      app.database.url,
      "select id, singleton_key as key from pgboss.job where name = 'balance-site' and state = 'completed' and created_on > $1",
      [burstStart],
    );
    const starts = await queryRows<{ id: string; key: string; active: number }>(app.database.url, 'select id, key, active from job_starts');
    for (const { site } of sites) {
      const runs = jobs.filter((j) => j.key === site.id);
      expect(runs.length).toBeGreaterThan(0);
      expect(runs.length).toBeLessThan(12);
      const started = starts.filter((s) => s.key === site.id);
      expect(started.map((s) => s.id)).toEqual(expect.arrayContaining(runs.map((r) => r.id)));
      expect(started.map((s) => s.active)).toEqual(started.map(() => 1));
    }
    // Every kWh of every site is accounted for: 96 quarter hours, 1 kWh produced, 1.5 kWh demanded.
    for (const { site } of sites) {
      const rows = (await a.api.get(`/v1/aggregated-balances?siteId=${site.id}&startDateTime=${DAY}&endDateTime=2026-03-02T23:00:00.000Z&interval=P1D`)).body.data;
      const total = (kind: string) => rows.filter((r: { kind: string }) => r.kind === kind).reduce((sum: number, r: { value: number }) => sum + r.value, 0);
      expect([total('local'), total('grid'), total('feed_in')]).toEqual([96, 48, 0]);
    }
  });

  it('fails a job that spans several chunks with the error of the write that failed, not of the statements it aborted', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [null]);
    // 16 UTC days: three chunks of at most 7 days. The next chunk's load is sent while the first
    // chunk's write runs, and fails because that write aborted the transaction.
    const days = Array.from({ length: 16 }, (_, d) => new Date(Date.parse('2026-04-01T00:00:00.000Z') + d * 86_400_000).toISOString());
    await queryRows(
      app.database.url,
      `create function fail_site() returns trigger language plpgsql as $$ begin if new.site_id = '${site.id}' then raise exception 'injected failure of %', new.site_id; end if; return new; end $$;
       create trigger fail_site before insert on balance_days for each row execute function fail_site();`,
    );
    try {
      const measurements = days.flatMap((day) => [...dayOfValues(producer.id, day, () => 2), ...dayOfValues(consumers[0]!.id, day, () => 1)]);
      expect((await a.api.post('/v1/measurements', { measurements })).status).toBe(201);
      await expect(services.balancing.balanceSite({ accountId: a.accountId, siteId: site.id })).rejects.toThrow(`injected failure of ${site.id}`);
    } finally {
      await queryRows(app.database.url, 'drop trigger fail_site on balance_days; drop function fail_site()');
    }
    // Nothing of the failed job was kept: the workers balance the whole range afterwards.
    const status = await waitForBalance(a.api, site.id, '2026-04-16T23:45:00.000Z', 30_000);
    expect(status.incompleteIntervals).toBe(0);
  });

  it('retries a failing job with backoff until it succeeds', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [null]);
    // The first write of results fails once (a sequence is not rolled back with the transaction).
    await queryRows(
      app.database.url,
      `create sequence fail_once;
       create function fail_once() returns trigger language plpgsql as $$ begin if nextval('fail_once') = 1 then raise exception 'injected failure'; end if; return new; end $$;
       create trigger fail_once before insert on balancing_days for each row execute function fail_once();`,
    );
    await a.api.post('/v1/measurements', { measurements: [dayOfValues(producer.id, DAY, () => 1), dayOfValues(consumers[0]!.id, DAY, () => 1)].flat() });
    const status = await waitForBalance(a.api, site.id, LAST_QH, 30_000);
    expect(status.incompleteIntervals).toBe(0);
    // The failed attempt is retried (after its backoff) and completes; the sweeper may have
    // balanced the site meanwhile, which the retry then finds done.
    const deadline = Date.now() + 15_000;
    let retried: Array<{ state: string; retry_count: number }> = [];
    while (retried.length === 0 && Date.now() < deadline) {
      retried = await queryRows(app.database.url, "select state::text, retry_count from pgboss.job where name = 'balance-site' and singleton_key = $1 and retry_count > 0", [site.id]);
      if (retried.some((job) => job.state !== 'completed')) retried = [];
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const all = await queryRows(app.database.url, "select state::text, retry_count, start_after from pgboss.job where name = 'balance-site' and singleton_key = $1", [site.id]);
    expect(retried, JSON.stringify(all)).toEqual([{ state: 'completed', retry_count: 1 }]);
  });
});
