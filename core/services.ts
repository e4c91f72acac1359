import type { UsersService } from './accounts/users.service.js';
import type { AuthService } from './auth/auth.service.js';
import type { BalancingSettingsService } from './balancing/balancing-settings.service.js';
import type { BalancingService } from './balancing/balancing.service.js';
import type { PriceComponentGroupsService, PriceComponentsService, PricesService } from './billing/price-catalogue.service.js';
import type { TaxRatesService } from './billing/tax-rates.service.js';
import type { TemplatesService } from './billing/templates.service.js';
import type { ContractMetersService } from './contracts/contract-meters.service.js';
import type { ContractsService } from './contracts/contracts.service.js';
import type { CustomAttributesService } from './custom-attributes/custom-attributes.service.js';
import type { CustomersService } from './customers/customers.service.js';
import type { EventsService } from './events/events.service.js';
import type { MeasurementsService } from './measurements/measurements.service.js';
import type { MetersService } from './meters/meters.service.js';
import type { MposService } from './mpos/mpos.service.js';
import type { ProductsService } from './products/products.service.js';
import type { PaymentMethodsService } from './payments/payment-methods.service.js';
import type { PaymentsService } from './payments/payments.service.js';
import type { PrepaymentAmountsService, PrepaymentRequestsService } from './payments/prepayments.service.js';
import type { SitesService } from './sites/sites.service.js';

/** The use cases the adapters call: REST and GraphQL both receive exactly this. */
export interface Services {
  auth: AuthService;
  users: UsersService;
  customAttributes: CustomAttributesService;
  sites: SitesService;
  mpos: MposService;
  products: ProductsService;
  customers: CustomersService;
  meters: MetersService;
  contracts: ContractsService;
  contractMeters: ContractMetersService;
  balancingSettings: BalancingSettingsService;
  measurements: MeasurementsService;
  balancing: BalancingService;
  taxRates: TaxRatesService;
  priceComponentGroups: PriceComponentGroupsService;
  priceComponents: PriceComponentsService;
  prices: PricesService;
  templates: TemplatesService;
  paymentMethods: PaymentMethodsService;
  payments: PaymentsService;
  prepaymentAmounts: PrepaymentAmountsService;
  prepaymentRequests: PrepaymentRequestsService;
  events: EventsService;
}
