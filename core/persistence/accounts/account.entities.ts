import { defineEntity, p } from '@mikro-orm/core';
import { Account, ApiToken, RefreshToken, User } from '../../domain/accounts/account.js';

// The accounts table keys on account_id like every other table (the future distribution key).
export const AccountEntity = defineEntity({
  class: Account,
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary().fieldName('account_id'),
    companyName: p.string().length(200),
    timezone: p.string().length(64),
    currency: p.string().length(3),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const UserEntity = defineEntity({
  class: User,
  tableName: 'users',
  uniques: [{ properties: ['accountId', 'email'] }],
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    firstName: p.string().length(200).nullable(),
    lastName: p.string().length(200).nullable(),
    phone1: p.string().length(200).nullable(),
    phone2: p.string().length(200).nullable(),
    email: p.string().length(320),
    role: p.string().length(16),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const ApiTokenEntity = defineEntity({
  class: ApiToken,
  tableName: 'api_tokens',
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    userId: () => p.manyToOne(UserEntity).mapToPk().fieldName('user_id'),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});

export const RefreshTokenEntity = defineEntity({
  class: RefreshToken,
  tableName: 'refresh_tokens',
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    apiTokenId: () => p.manyToOne(ApiTokenEntity).mapToPk().fieldName('api_token_id'),
    familyId: p.uuid().index(),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
  },
});
