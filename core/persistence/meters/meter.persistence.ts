import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FormulaComponent } from '../../domain/meters/formula.js';
import { Meter } from '../../domain/meters/meter.js';
import type { MeterRepository } from '../../meters/meters.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { changeTrigger } from '../change-triggers.js';
import { MpoEntity } from '../mpos/mpo.persistence.js';
import { SiteEntity } from '../sites/site.entity.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const MeterEntity = defineEntity({
  class: Meter,
  tableName: 'meters',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'siteId'] }],
  uniques: [{ properties: ['accountId', 'identifier'] }, { name: 'meters_one_grid_per_site', properties: ['accountId', 'siteId'], where: 'grid' }],
  triggers: [changeTrigger('meters', 'meters', ['update', 'delete'])],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    siteId: p.uuid().fieldName('site_id'),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    mpoId: p.uuid().fieldName('mpo_id').nullable(),
    mpo: tenantForeignKey(() => MpoEntity, 'mpo_id'),
    direction: p.string().length(16),
    identifier: p.string().length(100),
    serial: p.string().length(200).nullable(),
    marketLocationId: p.string().length(11).nullable(),
    meteringPointId: p.string().length(33).nullable(),
    startDate: p.datetime(3),
    measuring: p.string().length(32),
    grid: p.boolean(),
    formula: p.json<FormulaComponent[]>().nullable(),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroMeterRepository extends AccountScopedRepository<Meter, { siteId?: string }> implements MeterRepository {
  constructor(em: EntityManager) {
    super(em, MeterEntity);
  }

  async referencesTo(accountId: string, id: string): Promise<string[]> {
    const measured = await this.countReferences(accountId, id, { 'days of measurements': 'measurement_days.meter_id', readings: 'meter_readings.meter_id' });
    return [...(await this.dependentsOf(accountId, id)), ...measured];
  }

  async isIdentifierTaken(accountId: string, identifier: string, exceptId?: string): Promise<boolean> {
    return (await this.em.count(MeterEntity, { accountId, identifier, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;
  }

  findGridMeter(accountId: string, siteId: string): Promise<Meter | null> {
    return this.em.findOne(MeterEntity, { accountId, siteId, grid: true });
  }

  virtualMetersOfSite(accountId: string, siteId: string): Promise<Meter[]> {
    return this.em.find(MeterEntity, { accountId, siteId, formula: { $ne: null } });
  }

  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<Meter[]> {
    if (siteIds.length === 0) return Promise.resolve([]);
    return this.em.find(MeterEntity, { accountId, siteId: { $in: [...siteIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  async dependentsOf(accountId: string, meterId: string): Promise<string[]> {
    const [row] = await this.em.execute<{ contract_meters: string; settings: string; formulas: string }[]>(
      `select
         (select count(*) from contract_meters where account_id = ? and meter_id = ?) as contract_meters,
         (select count(*) from meter_balancing_settings where account_id = ? and meter_id = ?) as settings,
         (select count(*) from meters where account_id = ? and formula @> ?::jsonb) as formulas`,
      [accountId, meterId, accountId, meterId, accountId, JSON.stringify([{ meterId }])],
    );
    const counts = { 'contract meters': row!.contract_meters, 'balancing settings': row!.settings, 'virtual meter formulas': row!.formulas };
    return Object.entries(counts).flatMap(([what, count]) => (Number(count) > 0 ? [what] : []));
  }

  /** `for no key update`, as for sites: measurement days and readings of the meter are written meanwhile. */
  async lock(accountId: string, meterId: string): Promise<void> {
    await this.em.execute('select id from meters where account_id = ? and id = ? for no key update', [accountId, meterId]);
  }
}
