import { defineEntity, p } from '@mikro-orm/core';
import type { Address } from '../../domain/addresses/address.js';
import { Site, type DatedAllocationKey } from '../../domain/sites/site.js';
import { changeTrigger } from '../change-triggers.js';
import { accountKey } from '../tenant-keys.js';

export const SiteEntity = defineEntity({
  class: Site,
  tableName: 'sites',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  triggers: [changeTrigger('sites', 'sites', ['update', 'delete'])],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    name: p.string().length(200),
    type: p.string().length(32),
    balanceResolution: p.string().length(8),
    allocationKeys: p.json<DatedAllocationKey[]>(),
    address: p.json<Address>(),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});
