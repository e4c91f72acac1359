import type { MikroORM } from '@mikro-orm/postgresql';
import { container as root, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { AccountsService } from '../core/accounts/accounts.service.js';
import { AccessTokens } from '../core/auth/access-token.js';
import { AuthService } from '../core/auth/auth.service.js';
import { systemClock, type Clock } from '../core/clock.js';
import { MikroAccountRepository } from '../core/persistence/accounts/account.repository.js';
import { MikroCredentialsRepository } from '../core/persistence/accounts/credentials.repository.js';
import { MikroSiteRepository } from '../core/persistence/sites/site.repository.js';
import { MikroUnitOfWork } from '../core/persistence/unit-of-work.js';
import { SitesService } from '../core/sites/sites.service.js';
import type { UnitOfWork } from '../core/unit-of-work.js';

export interface ContainerSettings {
  orm: MikroORM;
  jwtSecret: string;
  refreshTokenTtlSeconds: number;
  clock?: Clock;
}

export const Tokens = {
  Clock: Symbol('Clock'),
  UnitOfWork: Symbol('UnitOfWork'),
  AccessTokens: Symbol('AccessTokens'),
} as const;

/**
 * The composition root. Repositories get the ORM's global EntityManager, which resolves to the
 * current request's (or job's) fork through MikroORM's RequestContext; every service is a
 * process-wide singleton.
 */
export function buildContainer(settings: ContainerSettings): DependencyContainer {
  const c = root.createChildContainer();
  const em = settings.orm.em;
  const single = <T>(factory: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory(factory) });

  c.register<Clock>(Tokens.Clock, { useValue: settings.clock ?? systemClock });
  c.register<UnitOfWork>(Tokens.UnitOfWork, single(() => new MikroUnitOfWork(em)));
  c.register(Tokens.AccessTokens, single(() => new AccessTokens(settings.jwtSecret)));
  c.register(
    AuthService,
    single((c) => new AuthService(new MikroCredentialsRepository(em), c.resolve(Tokens.UnitOfWork), c.resolve(Tokens.AccessTokens), c.resolve(Tokens.Clock), {
      refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
    })),
  );
  c.register(AccountsService, single((c) => new AccountsService(new MikroAccountRepository(em), c.resolve(Tokens.UnitOfWork), c.resolve(Tokens.Clock))));
  c.register(SitesService, single((c) => new SitesService(new MikroSiteRepository(em), c.resolve(Tokens.UnitOfWork), c.resolve(Tokens.Clock))));
  return c;
}
