import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Mpo } from '../../domain/mpos/mpo.js';
import type { MpoRepository } from '../../mpos/mpos.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { accountKey } from '../tenant-keys.js';

export const MpoEntity = defineEntity({
  class: Mpo,
  tableName: 'mpos',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  uniques: [{ name: 'mpos_one_virtual_per_account', properties: ['accountId'], where: "channel = 'pseudo' and provider = 'virtual'" }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    channel: p.string().length(100),
    provider: p.string().length(100),
    name: p.string().length(200),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroMpoRepository extends AccountScopedRepository<Mpo> implements MpoRepository {
  constructor(em: EntityManager) {
    super(em, MpoEntity);
  }

  findVirtual(accountId: string): Promise<Mpo | null> {
    return this.em.findOne(MpoEntity, { accountId, channel: 'pseudo', provider: 'virtual' });
  }
}
