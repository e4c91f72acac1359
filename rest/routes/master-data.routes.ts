import { accountView, listUsersQuery, updateAccountCommand, userView } from '../../core/accounts/accounts.commands.js';
import {
  balancingSettingView,
  createBalancingSettingCommand,
  listBalancingSettingsQuery,
  updateBalancingSettingCommand,
} from '../../core/balancing/balancing-settings.commands.js';
import {
  contractMeterView,
  contractView,
  createContractCommand,
  createContractMeterCommand,
  listContractMetersQuery,
  listContractsQuery,
  updateContractCommand,
  updateContractMeterCommand,
} from '../../core/contracts/contracts.commands.js';
import {
  createCustomAttributeCommand,
  customAttributeView,
  listCustomAttributesQuery,
  updateCustomAttributeCommand,
} from '../../core/custom-attributes/custom-attributes.commands.js';
import { createCustomerCommand, customerView, listCustomersQuery, updateCustomerCommand } from '../../core/customers/customers.commands.js';
import { createMeterCommand, listMetersQuery, meterView, updateMeterCommand } from '../../core/meters/meters.commands.js';
import { createMpoCommand, listMposQuery, mpoView } from '../../core/mpos/mpos.commands.js';
import { createProductCommand, listProductsQuery, productView, updateProductCommand } from '../../core/products/products.commands.js';
import { createSiteCommand, listSitesQuery, siteView, updateSiteCommand } from '../../core/sites/sites.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import { updatedOf, type RouteSpec } from '../route.js';

/** Onboarding resources in the spec's order: site, product, customer, meter, contract, assignment, setting. */
export function masterDataRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({ path: '/v1/sites', tag: 'Sites', singular: 'Site', plural: 'Sites', view: siteView, service: s.sites, create: createSiteCommand, list: listSitesQuery, update: updateSiteCommand }),
    ...resourceRoutes({
      path: '/v1/electricity-products',
      tag: 'Electricity products',
      singular: 'ElectricityProduct',
      plural: 'ElectricityProducts',
      view: productView,
      service: s.products,
      create: createProductCommand,
      list: listProductsQuery,
      update: updateProductCommand,
    }),
    ...resourceRoutes({
      path: '/v1/customers',
      tag: 'Customers',
      singular: 'Customer',
      plural: 'Customers',
      view: customerView,
      service: s.customers,
      create: createCustomerCommand,
      list: listCustomersQuery,
      update: updateCustomerCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/mpos',
      tag: 'MPOs',
      singular: 'Mpo',
      plural: 'Mpos',
      nouns: { singular: 'MPO', plural: 'MPOs' },
      view: mpoView,
      service: s.mpos,
      create: createMpoCommand,
      list: listMposQuery,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/meters',
      tag: 'Meters',
      singular: 'Meter',
      plural: 'Meters',
      view: meterView,
      service: s.meters,
      create: createMeterCommand,
      list: listMetersQuery,
      update: updateMeterCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/contracts',
      tag: 'Contracts',
      singular: 'Contract',
      plural: 'Contracts',
      view: contractView,
      service: s.contracts,
      create: createContractCommand,
      list: listContractsQuery,
      update: updateContractCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/contract-meters',
      tag: 'Contract meters',
      singular: 'ContractMeter',
      plural: 'ContractMeters',
      view: contractMeterView,
      service: s.contractMeters,
      create: createContractMeterCommand,
      list: listContractMetersQuery,
      update: updateContractMeterCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/meter-balancing-settings',
      tag: 'Meter balancing settings',
      singular: 'MeterBalancingSetting',
      plural: 'MeterBalancingSettings',
      view: balancingSettingView,
      service: s.balancingSettings,
      create: createBalancingSettingCommand,
      list: listBalancingSettingsQuery,
      update: updateBalancingSettingCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/custom-attributes',
      tag: 'Custom attributes',
      singular: 'CustomAttribute',
      plural: 'CustomAttributes',
      view: customAttributeView,
      service: s.customAttributes,
      create: createCustomAttributeCommand,
      list: listCustomAttributesQuery,
      update: updateCustomAttributeCommand,
      conflicts: true,
    }),
    ...resourceRoutes({ path: '/v1/users', tag: 'Users', singular: 'User', plural: 'Users', view: userView, service: s.users, list: listUsersQuery }),
    {
      method: 'get',
      path: '/v1/accounts/{id}',
      operationId: 'getAccount',
      summary: "Read the caller's account (its timezone governs every date)",
      description: "The account's timezone and currency, set when it was created, and the seller profile every invoice prints. 404 for any id but the caller's own account.",
      tag: 'Accounts',
      response: { status: 200, description: 'The account', schema: accountView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await s.users.getAccount(actor, params.id!) }),
    },
    {
      method: 'patch',
      path: '/v1/accounts/{id}',
      operationId: 'updateAccount',
      summary: "Update the caller's account: company name and the seller profile every invoice prints (JSON merge patch)",
      description:
        'A JSON merge patch (RFC 7396): `address`, `contact` and `bankAccount` merge key by key, `managingDirectors` is replaced as a whole, and the merged profile must be valid. ' +
        '`id`, `timezone`, `currency`, `createdAt` and `updatedAt` may be sent back unchanged but not changed (400 `field_read_only`).',
      tag: 'Accounts',
      body: updateAccountCommand,
      response: { status: 200, description: 'The updated account', schema: updatedOf(accountView) },
      errors: [404],
      handle: async ({ actor, params, body }) => ({ status: 200, body: { data: await s.users.updateAccount(actor, params.id!, body) } }),
    },
  ];
}
