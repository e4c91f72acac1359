import { defineEntity, p } from '@mikro-orm/core';
import { Account, ApiToken, RefreshToken, User, type SellerBankAccount, type SellerContact } from '../../domain/accounts/account.js';
import type { Address } from '../../domain/addresses/address.js';
import { changeTrigger } from '../change-triggers.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

// The accounts table keys on account_id like every other table (the future distribution key).
export const AccountEntity = defineEntity({
  class: Account,
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary().fieldName('account_id'),
    companyName: p.string().length(200),
    timezone: p.string().length(64),
    currency: p.string().length(3),
    address: p.json<Address>().nullable(),
    vatId: p.string().length(20).nullable(),
    taxNumber: p.string().length(20).nullable(),
    registerCourt: p.string().length(200).nullable(),
    registerNumber: p.string().length(100).nullable(),
    managingDirectors: p.json<string[]>(),
    contact: p.json<SellerContact>(),
    bankAccount: p.json<SellerBankAccount>().nullable(),
    sepaCreditorId: p.string().length(35).nullable(),
    disputeResolutionText: p.string().length(2000).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const UserEntity = defineEntity({
  class: User,
  tableName: 'users',
  triggers: [changeTrigger('users', 'credentials', ['update', 'delete'], ['role', 'account_id'])],
  uniques: [{ properties: ['accountId', 'email'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
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
  triggers: [changeTrigger('api_tokens', 'credentials', ['update', 'delete'], ['revoked_at', 'user_id', 'account_id'])],
  // Tokens issued before they named their account are found by hash alone (the plain index).
  uniques: [{ properties: ['accountId', 'tokenHash'] }],
  indexes: [{ properties: ['tokenHash'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    userId: p.uuid().fieldName('user_id'),
    user: tenantForeignKey(() => UserEntity, 'user_id'),
    tokenHash: p.string().length(64),
    createdAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});

export const RefreshTokenEntity = defineEntity({
  class: RefreshToken,
  tableName: 'refresh_tokens',
  triggers: [changeTrigger('refresh_tokens', 'credentials', ['update', 'delete'], ['revoked_at', 'account_id'])],
  uniques: [{ properties: ['accountId', 'tokenHash'] }],
  indexes: [{ properties: ['tokenHash'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    apiTokenId: p.uuid().fieldName('api_token_id'),
    apiToken: tenantForeignKey(() => ApiTokenEntity, 'api_token_id'),
    familyId: p.uuid().index(),
    tokenHash: p.string().length(64),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
  },
});
