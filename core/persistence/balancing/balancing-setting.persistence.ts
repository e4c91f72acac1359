import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BalancingSettingRepository } from '../../balancing/balancing-settings.repository.js';
import { MeterBalancingSetting } from '../../domain/balancing/balancing-setting.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { MeterEntity } from '../meters/meter.persistence.js';
import { SiteEntity } from '../sites/site.entity.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const BalancingSettingEntity = defineEntity({
  class: MeterBalancingSetting,
  tableName: 'meter_balancing_settings',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'siteId'] }, { properties: ['accountId', 'meterId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    siteId: p.uuid().fieldName('site_id'),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    meterId: p.uuid().fieldName('meter_id'),
    meter: tenantForeignKey(() => MeterEntity, 'meter_id'),
    balancing: p.string().length(32),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date').nullable(),
    priority: p.integer().nullable(),
    shareMicros: p.integer().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroBalancingSettingRepository
  extends AccountScopedRepository<MeterBalancingSetting, { siteId?: string; meterId?: string }>
  implements BalancingSettingRepository
{
  constructor(em: EntityManager) {
    super(em, BalancingSettingEntity);
  }

  settingsOfMeter(accountId: string, meterId: string): Promise<MeterBalancingSetting[]> {
    return this.em.find(BalancingSettingEntity, { accountId, meterId });
  }

  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<MeterBalancingSetting[]> {
    return this.em.find(BalancingSettingEntity, { accountId, siteId: { $in: [...siteIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
