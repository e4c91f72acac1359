import { expect } from 'vitest';
import type { Api } from './http.js';
import { create, fixtures } from './fixtures.js';

const QH = 15 * 60 * 1000;

/** A balanced site with one producer and consumers of the given priorities, all participating from 2026-01-01. */
export async function balancedSite(api: Api, priorities: Array<number | null>) {
  const site = await fixtures.site(api, { type: 'balanced_accurate' });
  const meter = (direction: string) => fixtures.meter(api, site.id, { direction, measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
  const producer = await meter('producer');
  const consumers = [];
  for (const priority of priorities) {
    const consumer = await meter('consumer');
    await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: consumer.id, balancing: 'participant', startDate: '2026-01-01', priority });
    consumers.push(consumer);
  }
  await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: producer.id, balancing: 'participant', startDate: '2026-01-01', priority: null });
  return { site, producer, consumers };
}

/** One Berlin day (96 quarter hours from `dayStart`) of values per meter. */
export function dayOfValues(meterId: string, dayStart: string, value: (slot: number) => number) {
  return Array.from({ length: 96 }, (_, slot) => ({ meterId, timestamp: new Date(Date.parse(dayStart) + slot * QH).toISOString(), value: value(slot) }));
}

/** Waits until the worker has balanced the site up to `lastInterval` (inclusive) and drained its ranges. */
export async function waitForBalance(api: Api, siteId: string, lastInterval: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await api.get(`/v1/sites/${siteId}/balancing-status`)).body;
    if (status.pendingRanges === 0 && status.lastBalancedInterval !== null && status.lastBalancedInterval >= lastInterval && !status.jobs.created && !status.jobs.active) {
      return status;
    }
    expect(Date.now(), `balancing of ${siteId} did not finish: ${JSON.stringify(status)}`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
