import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { container as root, instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { AccountsService } from '../core/accounts/accounts.service.js';
import { UsersService } from '../core/accounts/users.service.js';
import { silentLog, type ActivityLog } from '../core/activity-log.js';
import { AccessTokens } from '../core/auth/access-token.js';
import { AuthService } from '../core/auth/auth.service.js';
import { BalancingSettingsService } from '../core/balancing/balancing-settings.service.js';
import { AccountCache } from '../core/caching/account-cache.js';
import { noChangeFeed, type ChangeFeed, type ChangeTopic } from '../core/caching/change-feed.js';
import { systemClock, type Clock } from '../core/clock.js';
import { ContractMetersService } from '../core/contracts/contract-meters.service.js';
import { ContractsService } from '../core/contracts/contracts.service.js';
import { CustomAttributesService } from '../core/custom-attributes/custom-attributes.service.js';
import { CustomersService } from '../core/customers/customers.service.js';
import { MetersService } from '../core/meters/meters.service.js';
import { MeasurementsService } from '../core/measurements/measurements.service.js';
import { MposService } from '../core/mpos/mpos.service.js';
import { MikroAccountRepository } from '../core/persistence/accounts/account.repository.js';
import { MikroCredentialsRepository } from '../core/persistence/accounts/credentials.repository.js';
import { MikroUserRepository } from '../core/persistence/accounts/user.repository.js';
import { MikroBalancingSettingRepository } from '../core/persistence/balancing/balancing-setting.persistence.js';
import { MikroContractMeterRepository, MikroContractRepository } from '../core/persistence/contracts/contract.persistence.js';
import { MikroCustomAttributeRepository } from '../core/persistence/custom-attributes/custom-attribute.repository.js';
import { MikroCustomerRepository } from '../core/persistence/customers/customer.persistence.js';
import { MikroMeasurementRepository } from '../core/persistence/measurements/measurement.persistence.js';
import { MikroMeterRepository } from '../core/persistence/meters/meter.persistence.js';
import { MikroMpoRepository } from '../core/persistence/mpos/mpo.persistence.js';
import { MikroProductRepository } from '../core/persistence/products/product.persistence.js';
import { MikroSiteRepository } from '../core/persistence/sites/site.repository.js';
import { MikroUnitOfWork } from '../core/persistence/unit-of-work.js';
import { ProductsService } from '../core/products/products.service.js';
import { SitesService } from '../core/sites/sites.service.js';
import { BalancingService } from '../core/balancing/balancing.service.js';
import { TaxRatesService } from '../core/billing/catalogue/tax-rates.service.js';
import { TemplatesService } from '../core/billing/catalogue/templates.service.js';
import { MikroTemplateRepository } from '../core/persistence/billing/template.persistence.js';
import { PriceComponentGroupsService, PriceComponentsService, PricesService } from '../core/billing/catalogue/price-catalogue.service.js';
import { MikroPriceComponentGroupRepository, MikroPriceComponentRepository, MikroPriceRepository } from '../core/persistence/billing/price.persistence.js';
import { MikroTaxRateRepository } from '../core/persistence/billing/tax-rate.persistence.js';
import { MikroBalancingRepository } from '../core/persistence/balancing/balance.persistence.js';
import { PaymentMethodsService } from '../core/payments/payment-methods.service.js';
import { PaymentsService } from '../core/payments/payments.service.js';
import { PaymentRunsService } from '../core/payments/payment-runs.service.js';
import { MikroPaymentRunRepository } from '../core/persistence/payments/payment-run.persistence.js';
import { PrepaymentAmountsService, PrepaymentRequestsService } from '../core/payments/prepayments.service.js';
import {
  MikroPaymentMethodRepository,
  MikroPaymentRepository,
  MikroPrepaymentAmountRepository,
  MikroPrepaymentRequestRepository,
} from '../core/persistence/payments/payment.persistence.js';
import { EventsService } from '../core/events/events.service.js';
import { MikroEventOutbox, MikroEventRepository } from '../core/persistence/events/event.persistence.js';
import { WebhookDeliveriesService } from '../core/webhooks/webhook-deliveries.service.js';
import { WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.js';
import { WebhookEndpointsService } from '../core/webhooks/webhook-endpoints.service.js';
import { HttpWebhookSender } from '../core/webhooks/http-sender.js';
import { SecretBox } from '../core/webhooks/secret-box.js';
import { TargetPolicy } from '../core/webhooks/target-policy.js';
import { MikroWebhookDeliveryRepository, MikroWebhookEndpointRepository } from '../core/persistence/webhooks/webhook.persistence.js';
import { InvoiceDraftsService } from '../core/billing/invoices/invoice-drafts.service.js';
import { MikroBillingEnergyRepository } from '../core/persistence/billing/billing-energy.persistence.js';
import { BillRunsService } from '../core/billing/bill-runs/bill-runs.service.js';
import { MikroOutdatedDraftRepository } from '../core/persistence/billing/outdated-draft.repository.js';
import { InvoiceDocuments } from '../core/billing/invoices/invoice-documents.js';
import { PdfRenderPool, renderInThisThread } from '../core/billing/invoices/pdf-render-pool.js';
import { InvoiceIssuer } from '../core/billing/invoices/invoice-issuer.js';
import { InvoicesService, LineItemsService } from '../core/billing/invoices/invoices.service.js';
import { MikroBillRunRepository, MikroInvoiceRepository, MikroLineItemRepository } from '../core/persistence/billing/invoice.repositories.js';
import type { Config } from './config.js';
import type { JobQueue } from '../core/queue/job-queue.js';
import type { Services } from '../core/services.js';

/** Entries per cache and process: a few MB at most (a record read by id is about a kilobyte). */
const CACHED_ENTRIES = 10_000;

export interface ContainerSettings {
  config: Config;
  orm: MikroORM;
  queue: JobQueue;
  jwtSecret: string;
  webhookKey: string;
  refreshTokenTtlSeconds: number;
  /** Registers work for when the process's runtime closes. */
  onClose?(work: () => Promise<void>): void;
  /** What lets caches answer from memory; without one every read goes to the database. */
  changes?: ChangeFeed;
  clock?: Clock;
  /** Operator-facing activity of the use cases; silent when absent (the CLI). */
  logger?: ActivityLog;
}

/**
 * The composition root. Repositories get the ORM's global EntityManager, which resolves to the
 * current request's (or job's) fork (core/persistence/request-scope.ts); every service is a
 * process-wide singleton.
 */
export function buildContainer(settings: ContainerSettings): DependencyContainer {
  const c = root.createChildContainer();
  const em = settings.orm.em;
  const single = <T>(token: InjectionToken<T>, factory: (c: DependencyContainer) => T) =>
    c.register(token, { useFactory: instanceCachingFactory(factory) });

  const repositories = {
    accounts: new MikroAccountRepository(em),
    users: new MikroUserRepository(em),
    sites: new MikroSiteRepository(em),
    mpos: new MikroMpoRepository(em),
    products: new MikroProductRepository(em),
    customers: new MikroCustomerRepository(em),
    meters: new MikroMeterRepository(em),
    contracts: new MikroContractRepository(em),
    contractMeters: new MikroContractMeterRepository(em),
    settings: new MikroBalancingSettingRepository(em),
    attributes: new MikroCustomAttributeRepository(em),
    measurements: new MikroMeasurementRepository(em),
    balancing: new MikroBalancingRepository(em),
    taxRates: new MikroTaxRateRepository(em),
    priceGroups: new MikroPriceComponentGroupRepository(em),
    priceComponents: new MikroPriceComponentRepository(em),
    prices: new MikroPriceRepository(em),
    templates: new MikroTemplateRepository(em),
    paymentMethods: new MikroPaymentMethodRepository(em),
    payments: new MikroPaymentRepository(em),
    paymentRuns: new MikroPaymentRunRepository(em),
    prepaymentAmounts: new MikroPrepaymentAmountRepository(em),
    prepaymentRequests: new MikroPrepaymentRequestRepository(em),
    events: new MikroEventRepository(em),
    endpoints: new MikroWebhookEndpointRepository(em),
    deliveries: new MikroWebhookDeliveryRepository(em),
    billingEnergy: new MikroBillingEnergyRepository(em),
    billRuns: new MikroBillRunRepository(em),
    invoices: new MikroInvoiceRepository(em),
    lineItems: new MikroLineItemRepository(em),
    outdatedDrafts: new MikroOutdatedDraftRepository(em),
  };
  const uow = new MikroUnitOfWork(em);
  const clock = settings.clock ?? systemClock;
  const outbox = new MikroEventOutbox(em, clock);

  const changes = settings.changes ?? noChangeFeed;
  const cached = <V>(topic: ChangeTopic | ChangeTopic[]) => new AccountCache<V>(changes, topic, { ttlMs: settings.config.CACHE_TTL_SECONDS * 1000, maxEntries: CACHED_ENTRIES, now: () => clock.now().getTime() });
  single(AuthService, () => new AuthService(new MikroCredentialsRepository(em), uow, new AccessTokens(settings.jwtSecret), clock, {
    refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
  }, cached('credentials')));
  single(AccountsService, () => new AccountsService(repositories.accounts, repositories.templates, uow, clock));
  single(TemplatesService, () => new TemplatesService(repositories.templates, uow, clock));
  single(UsersService, () => new UsersService(repositories.users, repositories.accounts, { uow, clock, outbox }));
  single(CustomAttributesService, () => new CustomAttributesService(repositories.attributes, uow, clock, cached('custom_attributes')));
  single(SitesService, (c) => new SitesService(repositories.sites, c.resolve(CustomAttributesService), repositories.accounts, c.resolve(BalancingService), uow, clock, outbox, cached(['sites', 'custom_attributes'])));
  single(MposService, () => new MposService(repositories.mpos, uow, clock));
  single(ProductsService, () => new ProductsService(repositories.products, uow, clock));
  single(CustomersService, (c) => new CustomersService(repositories.customers, c.resolve(CustomAttributesService), repositories.contracts, uow, clock, outbox, cached(['customers', 'custom_attributes'])));
  single(MetersService, (c) => new MetersService({ ...repositories, attributes: c.resolve(CustomAttributesService), uow, clock, outbox, views: cached(['meters', 'custom_attributes']) }));
  single(ContractsService, (c) => new ContractsService({ ...repositories, attributes: c.resolve(CustomAttributesService), uow, clock, outbox }));
  single(ContractMetersService, () => new ContractMetersService({ ...repositories, uow, clock }));
  single(BalancingSettingsService, (c) => new BalancingSettingsService({ ...repositories, rebalancing: c.resolve(BalancingService), uow, clock }));
  single(BalancingService, () => new BalancingService({ ...repositories, queue: settings.queue, uow, outbox }));
  single(TaxRatesService, () => new TaxRatesService(repositories.taxRates, repositories.outdatedDrafts, uow, clock));
  const catalogue = (c: DependencyContainer) => ({ ...repositories, attributes: c.resolve(CustomAttributesService), uow, clock });
  single(PriceComponentGroupsService, (c) => new PriceComponentGroupsService(catalogue(c)));
  single(PriceComponentsService, (c) => new PriceComponentsService(catalogue(c)));
  single(PricesService, (c) => new PricesService(catalogue(c)));
  single(PaymentMethodsService, () => new PaymentMethodsService({ ...repositories, uow, clock, outbox }));
  single(PaymentsService, (c) => new PaymentsService({
    ...repositories,
    issuer: c.resolve(InvoiceIssuer),
    uow,
    clock,
    outbox,
    onOutcome: (actor, payments) => c.resolve(PaymentRunsService).closeSettled(actor, payments.map((p) => p.id)),
  }));
  single(PaymentRunsService, (c) => new PaymentRunsService({ ...repositories, issuer: c.resolve(InvoiceIssuer), uow, clock, outbox }));
  single(PrepaymentAmountsService, () => new PrepaymentAmountsService({ ...repositories, uow, clock, outbox }));
  single(PrepaymentRequestsService, () => new PrepaymentRequestsService({ ...repositories, uow, clock, outbox }));
  single(EventsService, () => new EventsService(repositories.events));
  single(InvoiceDraftsService, () => new InvoiceDraftsService(repositories));
  const { config } = settings;
  single(InvoiceIssuer, () => new InvoiceIssuer({ ...repositories, outbox }));
  const renderer = config.PDF_RENDER_THREADS > 0 ? new PdfRenderPool(config.PDF_RENDER_THREADS, config.PDF_RENDER_WARMUP_DOCUMENTS) : renderInThisThread;
  settings.onClose?.(() => renderer.close());
  single(InvoiceDocuments, () => new InvoiceDocuments({ ...repositories, renderer }));
  single(BillRunsService, (c) => new BillRunsService({
    ...repositories,
    drafts: c.resolve(InvoiceDraftsService),
    issuer: c.resolve(InvoiceIssuer),
    documents: c.resolve(InvoiceDocuments),
    queue: settings.queue,
    uow,
    clock,
    outbox,
    settings: { batchSize: config.BILL_RUN_BATCH_SIZE, leaseSeconds: config.BILL_RUN_LEASE_SECONDS },
    log: settings.logger ?? silentLog,
  }));
  single(InvoicesService, (c) => new InvoicesService({ ...repositories, issuer: c.resolve(InvoiceIssuer), documents: c.resolve(InvoiceDocuments), uow, clock }));
  single(LineItemsService, () => new LineItemsService(repositories.lineItems));
  const secrets = new SecretBox(settings.webhookKey);
  single(WebhookEndpointsService, () => new WebhookEndpointsService({ ...repositories, secrets, targets: new TargetPolicy(config.WEBHOOK_ALLOW_PRIVATE_TARGETS), uow, clock }));
  single(WebhookDeliveriesService, () => new WebhookDeliveriesService({ ...repositories, queue: settings.queue, uow, clock }));
  single(WebhookDispatcher, () => new WebhookDispatcher({
    ...repositories,
    secrets,
    sender: new HttpWebhookSender({ allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxSockets: 64 }),
    queue: settings.queue,
    clock,
    settings: {
      retry: { baseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS, capSeconds: config.WEBHOOK_RETRY_CAP_SECONDS, maxAttempts: config.WEBHOOK_MAX_ATTEMPTS },
      batchSize: 500,
      concurrency: 32,
      leaseSeconds: config.WEBHOOK_LEASE_SECONDS,
    },
  }));
  single(MeasurementsService, (c) => new MeasurementsService({ ...repositories, changes: c.resolve(BalancingService), uow, clock }));
  return c;
}

/** Every use-case service the adapters call. */
export function resolveServices(c: DependencyContainer): Services {
  return {
    auth: c.resolve(AuthService),
    users: c.resolve(UsersService),
    customAttributes: c.resolve(CustomAttributesService),
    sites: c.resolve(SitesService),
    mpos: c.resolve(MposService),
    products: c.resolve(ProductsService),
    customers: c.resolve(CustomersService),
    meters: c.resolve(MetersService),
    contracts: c.resolve(ContractsService),
    contractMeters: c.resolve(ContractMetersService),
    balancingSettings: c.resolve(BalancingSettingsService),
    measurements: c.resolve(MeasurementsService),
    balancing: c.resolve(BalancingService),
    taxRates: c.resolve(TaxRatesService),
    priceComponentGroups: c.resolve(PriceComponentGroupsService),
    priceComponents: c.resolve(PriceComponentsService),
    prices: c.resolve(PricesService),
    templates: c.resolve(TemplatesService),
    paymentMethods: c.resolve(PaymentMethodsService),
    payments: c.resolve(PaymentsService),
    paymentRuns: c.resolve(PaymentRunsService),
    prepaymentAmounts: c.resolve(PrepaymentAmountsService),
    prepaymentRequests: c.resolve(PrepaymentRequestsService),
    events: c.resolve(EventsService),
    webhookEndpoints: c.resolve(WebhookEndpointsService),
    webhookDeliveries: c.resolve(WebhookDeliveriesService),
    invoiceDrafts: c.resolve(InvoiceDraftsService),
    billRuns: c.resolve(BillRunsService),
    invoices: c.resolve(InvoicesService),
    lineItems: c.resolve(LineItemsService),
  };
}
