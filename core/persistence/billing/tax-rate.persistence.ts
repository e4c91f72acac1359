import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaxRateRepository } from '../../billing/catalogue/tax-rates.service.js';
import { TaxRate } from '../../domain/billing/tax-rate.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { accountKey } from '../tenant-keys.js';

export const TaxRateEntity = defineEntity({
  class: TaxRate,
  tableName: 'tax_rates',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'name'] }],
  // A name's history has no two rates in force on one day.
  checks: [{ name: 'tax_rates_no_overlap', expression: 'EXCLUDE USING gist (account_id WITH =, name WITH =, daterange(valid_from, valid_until) WITH &&)' }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    name: p.string().length(100),
    percentage: p.integer(),
    validFrom: p.string().columnType('date'),
    validUntil: p.string().columnType('date').nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroTaxRateRepository extends AccountScopedRepository<TaxRate, { name?: string }> implements TaxRateRepository {
  constructor(em: EntityManager) {
    super(em, TaxRateEntity);
  }

  historyOf(accountId: string, name: string): Promise<TaxRate[]> {
    return this.em.find(TaxRateEntity, { accountId, name }, { orderBy: { validFrom: 'asc' } });
  }
}
