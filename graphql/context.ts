import type { UsersService } from '../core/accounts/users.service.js';
import type { Actor } from '../core/auth/actor.js';
import type { BalancingSettingsService } from '../core/balancing/balancing-settings.service.js';
import type { BalancingService } from '../core/balancing/balancing.service.js';
import type { ContractMetersService } from '../core/contracts/contract-meters.service.js';
import type { ContractsService } from '../core/contracts/contracts.service.js';
import type { CustomAttributesService } from '../core/custom-attributes/custom-attributes.service.js';
import type { CustomersService } from '../core/customers/customers.service.js';
import type { MeasurementsService } from '../core/measurements/measurements.service.js';
import type { MetersService } from '../core/meters/meters.service.js';
import type { MposService } from '../core/mpos/mpos.service.js';
import type { ProductsService } from '../core/products/products.service.js';
import type { SitesService } from '../core/sites/sites.service.js';
import type { Loaders } from './loaders.js';

export interface GraphQLServices {
  sites: SitesService;
  mpos: MposService;
  meters: MetersService;
  customers: CustomersService;
  products: ProductsService;
  contracts: ContractsService;
  contractMeters: ContractMetersService;
  balancingSettings: BalancingSettingsService;
  customAttributes: CustomAttributesService;
  users: UsersService;
  measurements: MeasurementsService;
  balancing: BalancingService;
}

export interface GraphQLContext {
  actor: Actor;
  services: GraphQLServices;
  loaders: Loaders;
}

/** type-graphql hands resolvers class instances; core commands take plain JSON. */
export function toPlain(input: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
}
