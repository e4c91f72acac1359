import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ElectricityProduct, type FuelMix, type PrepaymentConfiguration } from '../../domain/products/electricity-product.js';
import type { ProductRepository } from '../../products/products.service.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { accountKey } from '../tenant-keys.js';

export const ProductEntity = defineEntity({
  class: ElectricityProduct,
  tableName: 'electricity_products',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    name: p.string().length(200),
    description: p.text().nullable(),
    prepaymentConfiguration: p.json<PrepaymentConfiguration>().nullable(),
    fuelMix: p.json<FuelMix>().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroProductRepository extends AccountScopedRepository<ElectricityProduct> implements ProductRepository {
  constructor(em: EntityManager) {
    super(em, ProductEntity);
  }
}
