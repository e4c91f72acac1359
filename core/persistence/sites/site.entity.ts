import { defineEntity, p } from '@mikro-orm/core';
import type { Address } from '../../domain/addresses/address.js';
import { Site } from '../../domain/sites/site.js';
import { AccountEntity } from '../accounts/account.entities.js';

export const SiteEntity = defineEntity({
  class: Site,
  tableName: 'sites',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    name: p.string().length(200),
    type: p.string().length(32),
    balanceResolution: p.string().length(8),
    address: p.json<Address>(),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});
