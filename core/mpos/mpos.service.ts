import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { isVirtualMpo, Mpo } from '../domain/mpos/mpo.js';
import { ConflictError } from '../errors.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { createMpoCommand, listMposQuery, type MpoView } from './mpos.commands.js';
import type { MpoRepository } from './mpos.repository.js';

function present(mpo: Mpo): MpoView {
  const { id, channel, provider, name } = mpo;
  return { id, channel, provider, name, ...timestampsOf(mpo) };
}

export class MposService implements ResourceService<MpoView> {
  constructor(
    private readonly mpos: MpoRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: unknown): Promise<MpoView> {
    const command = parseInput(createMpoCommand, input);
    const assertNoVirtual = async () => {
      if (!isVirtualMpo(command)) return;
      const existing = await this.mpos.findVirtual(actor.accountId);
      if (existing) throw new ConflictError('virtual_mpo_exists', `The account already has its virtual MPO: ${existing.id}.`);
    };
    return this.uow.transactional(async () => {
      await assertNoVirtual();
      const now = this.clock.now();
      const mpo = Object.assign(new Mpo(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      this.mpos.add(mpo);
      return present(mpo);
    }, assertNoVirtual);
  }

  async get(actor: Actor, id: string): Promise<MpoView> {
    return present(await loadOwned(this.mpos, actor, 'mpo', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<MpoView>> {
    return listPage(this.mpos, actor, listMposQuery, query, (items) => items.map(present));
  }
}
