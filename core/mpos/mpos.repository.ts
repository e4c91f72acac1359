import type { Mpo } from '../domain/mpos/mpo.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface MpoRepository extends ResourceRepository<Mpo> {
  findVirtual(accountId: string): Promise<Mpo | null>;
}
