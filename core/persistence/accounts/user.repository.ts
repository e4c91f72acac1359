import type { EntityManager } from '@mikro-orm/postgresql';
import type { UserRepository } from '../../accounts/users.service.js';
import type { User } from '../../domain/accounts/account.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { UserEntity } from './account.entities.js';

export class MikroUserRepository extends AccountScopedRepository<User> implements UserRepository {
  constructor(em: EntityManager) {
    super(em, UserEntity);
  }
}
