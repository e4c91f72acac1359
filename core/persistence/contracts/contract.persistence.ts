import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractMeterRepository, ContractRepository } from '../../contracts/contracts.repository.js';
import { Contract, ContractMeter } from '../../domain/contracts/contract.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { plainRows } from '../plain-rows.js';
import { CustomerEntity } from '../customers/customer.persistence.js';
import { MeterEntity } from '../meters/meter.persistence.js';
import { ProductEntity } from '../products/product.persistence.js';
import { SiteEntity } from '../sites/site.entity.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const ContractEntity = defineEntity({
  class: Contract,
  tableName: 'contracts',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'siteId'] }, { properties: ['accountId', 'customerId'] }],
  uniques: [{ properties: ['accountId', 'number'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    customerId: p.uuid().fieldName('customer_id'),
    customer: tenantForeignKey(() => CustomerEntity, 'customer_id'),
    electricityProductId: p.uuid().fieldName('electricity_product_id'),
    electricityProduct: tenantForeignKey(() => ProductEntity, 'electricity_product_id'),
    siteId: p.uuid().fieldName('site_id'),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    dunningBlock: p.boolean(),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date').nullable(),
    minimumTermEndDate: p.string().columnType('date').nullable(),
    noticePeriod: p.string().length(16).nullable(),
    renewalPeriod: p.string().length(16).nullable(),
    number: p.string().length(100),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const ContractMeterEntity = defineEntity({
  class: ContractMeter,
  tableName: 'contract_meters',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'meterId', 'startDate'] }, { properties: ['accountId', 'contractId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    siteId: p.uuid().fieldName('site_id'),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    meterId: p.uuid().fieldName('meter_id'),
    meter: tenantForeignKey(() => MeterEntity, 'meter_id'),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date').nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

const byCreation = { orderBy: { createdAt: 'asc', id: 'asc' } } as const;

export class MikroContractRepository
  extends AccountScopedRepository<Contract, { siteId?: string; customerId?: string; electricityProductId?: string }>
  implements ContractRepository
{
  constructor(em: EntityManager) {
    super(em, ContractEntity);
  }

  referencesTo(accountId: string, id: string): Promise<string[]> {
    return this.countReferences(accountId, id, {
      'contract meters': 'contract_meters.contract_id',
      payments: 'payments.contract_id',
      invoices: 'invoices.contract_id',
      'prepayment amounts': 'prepayment_amounts.contract_id',
      'prepayment requests': 'prepayment_requests.contract_id',
    });
  }

  async isNumberTaken(accountId: string, number: string, exceptId?: string): Promise<boolean> {
    return (await this.em.count(ContractEntity, { accountId, number, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;
  }

  findByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<Contract[]> {
    return this.em.find(ContractEntity, { accountId, customerId: { $in: [...customerIds] } }, byCreation);
  }

  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<Contract[]> {
    return this.em.find(ContractEntity, { accountId, siteId: { $in: [...siteIds] } }, byCreation);
  }
}

export class MikroContractMeterRepository
  extends AccountScopedRepository<ContractMeter, { contractId?: string; meterId?: string; siteId?: string }>
  implements ContractMeterRepository
{
  constructor(em: EntityManager) {
    super(em, ContractMeterEntity);
  }

  assignmentsOfMeter(accountId: string, meterId: string): Promise<ContractMeter[]> {
    return this.em.find(ContractMeterEntity, { accountId, meterId });
  }

  countForContract(accountId: string, contractId: string): Promise<number> {
    return this.em.count(ContractMeterEntity, { accountId, contractId });
  }

  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<ContractMeter[]> {
    // Plain rows outside the unit of work: a bill-run batch reads a thousand assignments and writes none.
    return plainRows(this.em, ContractMeterEntity, 'account_id = ? and contract_id = any(?::uuid[]) order by created_at, id', [accountId, contractIds]);
  }

  activeOnDate(accountId: string, meterIds: readonly string[], date: string): Promise<ContractMeter[]> {
    return this.em.find(ContractMeterEntity, {
      accountId,
      meterId: { $in: [...meterIds] },
      startDate: { $lte: date },
      $or: [{ endDate: null }, { endDate: { $gt: date } }],
    });
  }
}
