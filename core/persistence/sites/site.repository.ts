import type { EntityManager } from '@mikro-orm/postgresql';
import type { Site } from '../../domain/sites/site.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { SiteEntity } from './site.entity.js';

export class MikroSiteRepository extends AccountScopedRepository<Site> implements SiteRepository {
  constructor(em: EntityManager) {
    super(em, SiteEntity);
  }

  /**
   * `for no key update` serialises the lockers (and updates of the row) as `for update` would, but
   * lets rows referencing the site be written meanwhile: their foreign key check takes a key-share
   * lock, which `for update` blocks until the locker commits.
   */
  async lock(accountId: string, id: string): Promise<void> {
    await this.em.execute('select id from sites where account_id = ? and id = ? for no key update', [accountId, id]);
  }

  referencesTo(accountId: string, id: string): Promise<string[]> {
    return this.countReferences(accountId, id, {
      meters: 'meters.site_id',
      contracts: 'contracts.site_id',
      'balancing settings': 'meter_balancing_settings.site_id',
      'balancing results': 'balancing_days.site_id',
    });
  }
}
