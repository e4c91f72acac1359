import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { ContractMeter } from '../domain/contracts/contract.js';
import { findOverlap } from '../domain/periods.js';
import { ConflictError, ValidationError, type FieldError } from '../errors.js';
import type { MeterRepository } from '../meters/meters.repository.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import { mergeUpdate } from '../patching.js';
import { assertReferences } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { OutdatedDraftRepository } from '../billing/invoices/outdated-drafts.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { ContractMeterRepository, ContractRepository } from './contracts.repository.js';
import { createContractMeterCommand, listContractMetersQuery, updateContractMeterCommand, type ContractMeterView } from './contracts.commands.js';

function present(assignment: ContractMeter): ContractMeterView {
  const { id, contractId, siteId, meterId, startDate, endDate } = assignment;
  return { id, contractId, siteId, meterId, startDate, endDate, ...timestampsOf(assignment) };
}

export interface ContractMeterDependencies {
  contractMeters: ContractMeterRepository;
  contracts: ContractRepository;
  meters: MeterRepository;
  sites: SiteRepository;
  outdatedDrafts: OutdatedDraftRepository;
  uow: UnitOfWork;
  clock: Clock;
}

/** Assignments of meters to contracts: a meter belongs to at most one contract at a time. */
export class ContractMetersService implements ResourceService<ContractMeterView> {
  constructor(private readonly deps: ContractMeterDependencies) {}

  async create(actor: Actor, input: unknown): Promise<ContractMeterView> {
    const command = parseInput(createContractMeterCommand, input);
    const { contractMeters, uow, clock } = this.deps;
    return uow.transactional(async () => {
      const id = randomUUID();
      await this.checkAssignment(actor, command, id);
      const now = clock.now();
      const assignment = Object.assign(new ContractMeter(), { id, accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      contractMeters.add(assignment);
      await this.deps.outdatedDrafts.markOfContracts(actor.accountId, [assignment.contractId]);
      return present(assignment);
    });
  }

  async get(actor: Actor, id: string): Promise<ContractMeterView> {
    return present(await loadOwned(this.deps.contractMeters, actor, 'contract_meter', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<ContractMeterView>> {
    return listPage(this.deps.contractMeters, actor, listContractMetersQuery, query, (items) => items.map(present));
  }

  async listByContracts(actor: Actor, contractIds: readonly string[]): Promise<ContractMeterView[]> {
    return (await this.deps.contractMeters.findByContractIds(actor.accountId, contractIds)).map(present);
  }

  /** The assignment of each meter in force on a date (at most one per meter). */
  async activeOnDate(actor: Actor, meterIds: readonly string[], date: string): Promise<ContractMeterView[]> {
    return (await this.deps.contractMeters.activeOnDate(actor.accountId, meterIds, date)).map(present);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<ContractMeterView> {
    const { contractMeters, uow, clock } = this.deps;
    return uow.transactional(async () => {
      const assignment = await loadOwned(contractMeters, actor, 'contract_meter', id);
      const { merged } = mergeUpdate({ current: present(assignment), patch, patchSchema: updateContractMeterCommand, createSchema: createContractMeterCommand });
      await this.checkAssignment(actor, merged, id);
      await this.deps.outdatedDrafts.markOfContracts(actor.accountId, [assignment.contractId, merged.contractId]);
      Object.assign(assignment, { ...merged, updatedAt: clock.now() });
      return present(assignment);
    });
  }

  private async checkAssignment(actor: Actor, command: z.output<typeof createContractMeterCommand>, id: string): Promise<void> {
    const { contractMeters, contracts, meters, sites } = this.deps;
    const [contract] = await contracts.findByIds(actor.accountId, [command.contractId]);
    const [meter] = await meters.findByIds(actor.accountId, [command.meterId]);
    const [site] = await sites.findByIds(actor.accountId, [command.siteId]);
    assertReferences([
      { path: 'contractId', resource: 'contract', id: command.contractId, exists: Boolean(contract) },
      { path: 'siteId', resource: 'site', id: command.siteId, exists: Boolean(site) },
      { path: 'meterId', resource: 'meter', id: command.meterId, exists: Boolean(meter) },
    ]);
    const errors: FieldError[] = [];
    if (command.siteId !== contract!.siteId) errors.push({ path: 'siteId', code: 'site_mismatch', message: "siteId is the contract's site." });
    if (meter!.siteId !== contract!.siteId) errors.push({ path: 'meterId', code: 'meter_not_on_site', message: "The meter is not on the contract's site." });
    if (command.startDate < contract!.startDate) {
      errors.push({ path: 'startDate', code: 'starts_before_contract', message: `The contract starts on ${contract!.startDate}.` });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    await meters.lock(actor.accountId, command.meterId);
    const overlap = findOverlap({ ...command, id }, await contractMeters.assignmentsOfMeter(actor.accountId, command.meterId));
    if (overlap) {
      throw new ConflictError('meter_already_assigned', `The meter is assigned to contract ${overlap.contractId} from ${overlap.startDate}${overlap.endDate ? ` to ${overlap.endDate}` : ''}.`);
    }
  }
}
