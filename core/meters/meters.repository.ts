import type { Meter } from '../domain/meters/meter.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export interface MeterRepository extends ResourceRepository<Meter, { siteId?: string }>, DeletableRepository<Meter> {
  isIdentifierTaken(accountId: string, identifier: string, exceptId?: string): Promise<boolean>;
  findGridMeter(accountId: string, siteId: string): Promise<Meter | null>;
  /** Virtual meters of a site, for cycle checks. */
  virtualMetersOfSite(accountId: string, siteId: string): Promise<Meter[]>;
  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<Meter[]>;
  /** What ties a meter to its site: contract meters, balancing settings, formulas naming it. */
  dependentsOf(accountId: string, meterId: string): Promise<string[]>;
  /** Serialises assignments of one meter (row lock until the transaction ends). */
  lock(accountId: string, meterId: string): Promise<void>;
}
