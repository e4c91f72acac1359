import type { MeterBalancingSetting } from '../domain/balancing/balancing-setting.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface BalancingSettingRepository extends ResourceRepository<MeterBalancingSetting, { siteId?: string; meterId?: string }> {
  settingsOfMeter(accountId: string, meterId: string): Promise<MeterBalancingSetting[]>;
  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<MeterBalancingSetting[]>;
}
