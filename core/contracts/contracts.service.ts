import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { CustomAttributesService, PresentValues } from '../custom-attributes/custom-attributes.service.js';
import type { CustomerRepository } from '../customers/customers.repository.js';
import { Contract } from '../domain/contracts/contract.js';
import { ConflictError } from '../errors.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import type { ProductRepository } from '../products/products.service.js';
import { assertReferences } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { OutdatedDraftRepository } from '../billing/invoices/outdated-drafts.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { ContractMeterRepository, ContractRepository } from './contracts.repository.js';
import { createContractCommand, listContractsQuery, updateContractCommand, type ContractView } from './contracts.commands.js';

function present(contract: Contract, values: PresentValues): ContractView {
  const { id, customerId, electricityProductId, siteId, dunningBlock, startDate, endDate, minimumTermEndDate, noticePeriod, renewalPeriod, number } = contract;
  return {
    id,
    customerId,
    electricityProductId,
    siteId,
    dunningBlock,
    startDate,
    endDate,
    minimumTermEndDate,
    noticePeriod,
    renewalPeriod,
    number,
    customAttributes: values(contract.customAttributes),
    ...timestampsOf(contract),
  };
}

export interface ContractDependencies {
  contracts: ContractRepository;
  contractMeters: ContractMeterRepository;
  customers: CustomerRepository;
  products: ProductRepository;
  sites: SiteRepository;
  outdatedDrafts: OutdatedDraftRepository;
  attributes: CustomAttributesService;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
}

export class ContractsService implements ResourceService<ContractView> {
  constructor(private readonly deps: ContractDependencies) {}

  async create(actor: Actor, input: unknown): Promise<ContractView> {
    const command = parseInput(createContractCommand, input);
    const { contracts, attributes, uow, clock } = this.deps;
    return uow.transactional(async () => {
      await this.checkContract(actor, command);
      const customAttributes = await attributes.checkValues(actor.accountId, 'contract', command.customAttributes);
      const now = clock.now();
      const contract = Object.assign(new Contract(), { id: randomUUID(), accountId: actor.accountId, ...command, customAttributes, createdAt: now, updatedAt: now });
      contracts.add(contract);
      const view = present(contract, await attributes.presenter(actor.accountId, 'contract'));
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'contract.created', entityId: view.id, data: view, siteIds: [contract.siteId] }]);
      return view;
    });
  }

  async get(actor: Actor, id: string): Promise<ContractView> {
    return (await this.presentAll(actor, [await loadOwned(this.deps.contracts, actor, 'contract', id)]))[0]!;
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<ContractView[]> {
    return this.presentAll(actor, await this.deps.contracts.findByIds(actor.accountId, ids));
  }

  async listByCustomers(actor: Actor, customerIds: readonly string[]): Promise<ContractView[]> {
    return this.presentAll(actor, await this.deps.contracts.findByCustomerIds(actor.accountId, customerIds));
  }

  async listBySites(actor: Actor, siteIds: readonly string[]): Promise<ContractView[]> {
    return this.presentAll(actor, await this.deps.contracts.findBySiteIds(actor.accountId, siteIds));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<ContractView>> {
    return listPage(this.deps.contracts, actor, listContractsQuery, query, (items) => this.presentAll(actor, items));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<ContractView> {
    const { contracts, contractMeters, attributes, uow, clock } = this.deps;
    return uow.transactional(async () => {
      const contract = await loadOwned(contracts, actor, 'contract', id);
      const values = await attributes.presenter(actor.accountId, 'contract');
      const { merged } = mergeUpdate({ current: present(contract, values), patch, patchSchema: updateContractCommand, createSchema: createContractCommand });
      if (merged.siteId !== contract.siteId && (await contractMeters.countForContract(actor.accountId, contract.id)) > 0) {
        throw new ConflictError('contract_has_meters', 'The site of a contract with contract meters cannot change.');
      }
      await this.checkContract(actor, merged, contract.id);
      const customAttributes = await attributes.checkValues(actor.accountId, 'contract', merged.customAttributes);
      const previousSite = contract.siteId;
      await this.deps.outdatedDrafts.markOfContracts(actor.accountId, [contract.id]);
      Object.assign(contract, { ...merged, customAttributes, updatedAt: clock.now() });
      const view = present(contract, values);
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'contract.updated', entityId: view.id, data: view, siteIds: [...new Set([previousSite, contract.siteId])] }]);
      return view;
    });
  }

  /** For internal tools (GraphQL): a contract without meters, payments and prepayments. */
  async delete(actor: Actor, id: string): Promise<ContractView> {
    const { contracts, attributes, uow } = this.deps;
    return uow.transactional(async () => {
      const contract = await loadOwned(contracts, actor, 'contract', id);
      const view = present(contract, await attributes.presenter(actor.accountId, 'contract'));
      await deleteUnreferenced(contracts, actor, 'contract', contract);
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'contract.deleted', entityId: contract.id, data: view, siteIds: [contract.siteId] }]);
      return view;
    });
  }

  private async checkContract(actor: Actor, command: z.output<typeof createContractCommand>, id?: string): Promise<void> {
    const { contracts, customers, products, sites } = this.deps;
    const { accountId } = actor;
    assertReferences([
      { path: 'customerId', resource: 'customer', id: command.customerId, exists: (await customers.findByIds(accountId, [command.customerId])).length > 0 },
      {
        path: 'electricityProductId',
        resource: 'electricity product',
        id: command.electricityProductId,
        exists: (await products.findByIds(accountId, [command.electricityProductId])).length > 0,
      },
      { path: 'siteId', resource: 'site', id: command.siteId, exists: (await sites.findByIds(accountId, [command.siteId])).length > 0 },
    ]);
    if (await contracts.isNumberTaken(accountId, command.number, id)) {
      throw new ConflictError('contract_number_taken', `Contract number ${command.number} is taken in this account.`);
    }
  }

  private async presentAll(actor: Actor, contracts: Contract[]): Promise<ContractView[]> {
    const values = await this.deps.attributes.presenter(actor.accountId, 'contract');
    return contracts.map((contract) => present(contract, values));
  }
}
