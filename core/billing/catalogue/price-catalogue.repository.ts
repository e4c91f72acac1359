import type { Price, PriceComponent, PriceComponentGroup } from '../../domain/billing/price.js';
import type { ResourceRepository } from '../../resource.repository.js';

export interface PriceComponentGroupRepository extends ResourceRepository<PriceComponentGroup, { electricityProductId?: string }> {
  findByProductIds(accountId: string, productIds: readonly string[]): Promise<PriceComponentGroup[]>;
}

export interface PriceComponentRepository extends ResourceRepository<PriceComponent, { priceComponentGroupId?: string }> {
  findByGroupIds(accountId: string, groupIds: readonly string[]): Promise<PriceComponent[]>;
}

export interface PriceRepository extends ResourceRepository<Price, { priceComponentId?: string }> {
  findByComponentIds(accountId: string, componentIds: readonly string[]): Promise<Price[]>;
  isValidFromTaken(accountId: string, priceComponentId: string, validFrom: string, exceptId: string): Promise<boolean>;
  /** Whether an issued (or paid, or cancelled) invoice billed a line at this price. */
  isUsedByIssuedInvoice(accountId: string, id: string): Promise<boolean>;
}
