import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PriceComponentGroupRepository, PriceComponentRepository, PriceRepository } from '../../billing/catalogue/price-catalogue.repository.js';
import { DEFAULT_PRICE_COMPONENT_CATEGORY, Price, PriceComponent, PriceComponentGroup } from '../../domain/billing/price.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { ProductEntity } from '../products/product.persistence.js';
import { TaxRateEntity } from './tax-rate.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const PriceComponentGroupEntity = defineEntity({
  class: PriceComponentGroup,
  tableName: 'price_component_groups',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'electricityProductId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    electricityProductId: p.uuid().fieldName('electricity_product_id'),
    electricityProduct: tenantForeignKey(() => ProductEntity, 'electricity_product_id'),
    name: p.string().length(200),
    position: p.integer(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const PriceComponentEntity = defineEntity({
  class: PriceComponent,
  tableName: 'price_components',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'priceComponentGroupId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    priceComponentGroupId: p.uuid().fieldName('price_component_group_id'),
    priceComponentGroup: tenantForeignKey(() => PriceComponentGroupEntity, 'price_component_group_id'),
    name: p.string().length(200),
    kind: p.string().length(16),
    unit: p.string().length(8),
    category: p.string().length(16).default(DEFAULT_PRICE_COMPONENT_CATEGORY),
    taxRateId: p.uuid().fieldName('tax_rate_id'),
    taxRate: tenantForeignKey(() => TaxRateEntity, 'tax_rate_id'),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const PriceEntity = defineEntity({
  class: Price,
  tableName: 'prices',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  uniques: [{ properties: ['accountId', 'priceComponentId', 'validFrom'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    priceComponentId: p.uuid().fieldName('price_component_id'),
    priceComponent: tenantForeignKey(() => PriceComponentEntity, 'price_component_id'),
    validFrom: p.string().columnType('date'),
    amount: p.bigint(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

const byCreation = { orderBy: { createdAt: 'asc', id: 'asc' } } as const;

export class MikroPriceComponentGroupRepository
  extends AccountScopedRepository<PriceComponentGroup, { electricityProductId?: string }>
  implements PriceComponentGroupRepository
{
  constructor(em: EntityManager) {
    super(em, PriceComponentGroupEntity);
  }

  findByProductIds(accountId: string, productIds: readonly string[]): Promise<PriceComponentGroup[]> {
    return this.em.find(PriceComponentGroupEntity, { accountId, electricityProductId: { $in: [...productIds] } }, { orderBy: { position: 'asc', createdAt: 'asc', id: 'asc' } });
  }
}

export class MikroPriceComponentRepository extends AccountScopedRepository<PriceComponent, { priceComponentGroupId?: string }> implements PriceComponentRepository {
  constructor(em: EntityManager) {
    super(em, PriceComponentEntity);
  }

  findByGroupIds(accountId: string, groupIds: readonly string[]): Promise<PriceComponent[]> {
    return this.em.find(PriceComponentEntity, { accountId, priceComponentGroupId: { $in: [...groupIds] } }, byCreation);
  }
}

export class MikroPriceRepository extends AccountScopedRepository<Price, { priceComponentId?: string }> implements PriceRepository {
  constructor(em: EntityManager) {
    super(em, PriceEntity);
  }

  findByComponentIds(accountId: string, componentIds: readonly string[]): Promise<Price[]> {
    return this.em.find(PriceEntity, { accountId, priceComponentId: { $in: [...componentIds] } }, { orderBy: { validFrom: 'asc' } });
  }

  async isValidFromTaken(accountId: string, priceComponentId: string, validFrom: string, exceptId: string): Promise<boolean> {
    return (await this.em.count(PriceEntity, { accountId, priceComponentId, validFrom, id: { $ne: exceptId } })) > 0;
  }

  async isUsedByIssuedInvoice(accountId: string, id: string): Promise<boolean> {
    const [row] = await this.em.execute<{ used: boolean }[]>(
      `select exists (select 1 from line_items l join invoices i on i.id = l.invoice_id and i.account_id = l.account_id
                       where l.account_id = ? and l.price_id = ? and i.state <> 'draft') as used`,
      [accountId, id],
    );
    return row!.used;
  }
}
