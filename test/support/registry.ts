import { randomUUID } from 'node:crypto';
import { addDays, calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { earliestCollectionDate } from '../../core/domain/time/target2.js';
import type { SignedUp } from './app.js';
import { waitForRun } from './billing.js';
import { address, create, fixtures } from './fixtures.js';
import type { Api } from './http.js';

/**
 * One instance of every resource in one account. Every resource the API serves has a fixture
 * here; the authorization tests fail for any operation of the OpenAPI document or the GraphQL
 * schema that no fixture covers. Add yours with your resource.
 */
export interface World {
  account: string;
  user: string;
  site: string;
  product: string;
  customer: string;
  mpo: string;
  meter: string;
  contract: string;
  contractMeter: string;
  balancingSetting: string;
  customAttribute: string;
  taxRate: string;
  priceComponentGroup: string;
  priceComponent: string;
  price: string;
  template: string;
  paymentMethod: string;
  payment: string;
  prepaymentAmount: string;
  prepaymentRequest: string;
  event: string;
  webhookEndpoint: string;
  webhookDelivery: string;
  billRun: string;
  invoice: string;
  lineItem: string;
  paymentRun: string;
}

export async function buildWorld(owner: SignedUp): Promise<World> {
  const api = owner.api;
  // First, so that everything after it is delivered (and logged) to it.
  const webhookEndpoint = await create(api, '/v1/webhook-endpoints', { url: 'https://hooks.example.com/ebbs', events: ['*'] });
  const site = await fixtures.site(api);
  const product = await fixtures.product(api, { prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 1 } });
  const customer = await fixtures.customer(api);
  const mpo = await fixtures.mpo(api);
  const meter = await fixtures.meter(api, site.id, { mpoId: mpo.id });
  const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
  const contractMeter = await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
  const balancingSetting = await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: meter.id, balancing: 'participant', startDate: '2026-01-01' });
  const customAttribute = await create(api, '/v1/custom-attributes', { title: 'Building', name: 'building', entity: 'site', type: 'text' });
  const taxRate = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2026-01-01' });
  const priceComponentGroup = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Energy' });
  const priceComponent = await create(api, '/v1/price-components', { priceComponentGroupId: priceComponentGroup.id, name: 'Local', kind: 'local_energy', taxRateId: taxRate.id });
  const price = await create(api, '/v1/prices', { priceComponentId: priceComponent.id, validFrom: '2026-01-01', amount: '0.250000' });
  const template = await create(api, '/v1/templates', { name: 'Invoice EN', kind: 'invoice', locale: 'en-GB' });
  const paymentMethod = await create(api, '/v1/payment-methods', { customerId: customer.id, ...directDebit });
  const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '50.00', type: 'payment', dueDate: '2026-01-15', paymentMethodId: paymentMethod.id });
  const prepaymentAmount = await create(api, '/v1/prepayment-amounts', { contractId: contract.id, amount: '60.00', validFrom: '2026-01-01' });
  const prepaymentRequest = await create(api, '/v1/prepayment-requests', { contractId: contract.id, startDate: '2026-01-01', endDate: '2026-04-01' });
  const { billRun, invoice, lineItem } = await billedDay(api, customer.id, taxRate.id);
  // A direct debit run over the requested prepayments (the customer has a mandate).
  const paymentRun = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), siteIds: [site.id] });
  const event = (await api.get('/v1/events?limit=1')).body.data[0];
  const delivery = (await api.get(`/v1/webhook-endpoints/${webhookEndpoint.id}/deliveries?limit=1`)).body.data[0];
  return {
    account: owner.accountId,
    user: owner.userId,
    site: site.id,
    product: product.id,
    customer: customer.id,
    mpo: mpo.id,
    meter: meter.id,
    contract: contract.id,
    contractMeter: contractMeter.id,
    balancingSetting: balancingSetting.id,
    customAttribute: customAttribute.id,
    taxRate: taxRate.id,
    priceComponentGroup: priceComponentGroup.id,
    priceComponent: priceComponent.id,
    price: price.id,
    template: template.id,
    paymentMethod: paymentMethod.id,
    payment: payment.id,
    prepaymentAmount: prepaymentAmount.id,
    prepaymentRequest: prepaymentRequest.id,
    event: event.id,
    webhookEndpoint: webhookEndpoint.id,
    webhookDelivery: delivery.id,
    billRun: billRun.id,
    invoice: invoice.id,
    lineItem: lineItem.id,
    paymentRun: paymentRun.id,
  };
}

/**
 * An issued invoice (one day of consumption on an unbalanced site) and a bill run left `created`
 * (its only contract reported: the balanced site has no balanced values).
 */
async function billedDay(api: Api, customerId: string, taxRateId: string) {
  const site = await fixtures.site(api, { type: 'unbalanced_accurate' });
  const meter = await fixtures.meter(api, site.id, { measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
  const dayStart = Date.parse('2025-12-31T23:00:00.000Z');
  const measurements = Array.from({ length: 96 }, (_, i) => ({ meterId: meter.id, timestamp: new Date(dayStart + i * 900_000).toISOString(), value: 0.25 }));
  await create(api, '/v1/measurements', { measurements });
  const product = await fixtures.product(api);
  const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Energy' });
  const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Energy', kind: 'energy', taxRateId });
  await create(api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount: '0.300000' });
  const contract = await fixtures.contract(api, { customerId, electricityProductId: product.id, siteId: site.id });
  await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
  const issuedRun = await create(api, '/v1/bill-runs', { periodStart: '2026-01-01', periodEnd: '2026-01-02', siteIds: [site.id] });
  await waitForRun(api, issuedRun.id, 'created');
  await api.post(`/v1/bill-runs/${issuedRun.id}/complete`);
  await waitForRun(api, issuedRun.id, 'completed');
  const invoice = (await api.get(`/v1/invoices?billRunId=${issuedRun.id}`)).body.data[0];
  const lineItem = (await api.get(`/v1/line-items?invoiceId=${invoice.id}`)).body.data[0];
  const billRun = await create(api, '/v1/bill-runs', { periodStart: '2026-02-01', periodEnd: '2026-03-01', siteIds: [site.id] });
  await waitForRun(api, billRun.id, 'created');
  return { billRun, invoice, lineItem };
}

/** Body fields that name another resource, and which one. */
export const REFERENCE_FIELDS: Record<string, keyof World> = {
  siteId: 'site',
  meterId: 'meter',
  customerId: 'customer',
  contractId: 'contract',
  electricityProductId: 'product',
  mpoId: 'mpo',
  taxRateId: 'taxRate',
  priceComponentGroupId: 'priceComponentGroup',
  priceComponentId: 'priceComponent',
  paymentMethodId: 'paymentMethod',
};

export interface Fixture {
  /** The instance in a world that `{id}` paths of this collection address. */
  instance?: keyof World;
  /** Query string a GET of the collection needs, e.g. a meter and a range. */
  query?(world: World): string;
  /** A valid creation body in the world's account (may create what it needs first). */
  createBody?(world: World, api: Api): Promise<Record<string, unknown>>;
  /** A valid merge patch. */
  patchBody?: Record<string, unknown>;
  /** The collection a POST adds to, when it is not the operation's own path (batches, actions). */
  collection?(world: World): string;
  /**
   * GraphQL field names: a query by id, a list query, the mutations, a batch creation answering a
   * list, and actions (mutations taking just an `id`).
   */
  graphql?: { one: string; many?: string; create?: string; update?: string; batch?: string; actions?: string[] };
}

const unique = () => randomUUID().slice(0, 8);
const paymentBody = (w: World) => ({ contractId: w.contract, amount: '12.50', type: 'payment', dueDate: '2026-02-01', paymentMethodId: w.paymentMethod });
/** A valid SEPA direct debit: account, holder and signed mandate. */
export const directDebit = { type: 'sepa_direct_debit', accountHolder: 'Erika Mustermann', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', mandateReference: 'M-1', mandateSignedAt: '2026-01-01' };
/** Each created price or prepayment amount needs its own validFrom. */
let versions = 0;
/** The earliest collection date a direct debit run may name today. */
const collectionDate = () => earliestCollectionDate(calendarDateOf(new Date(), 'Europe/Berlin'));
/** Each payment run fixture collects a prepayment of its own due date. */
let collected = 0;

/** Keyed by collection path (the OpenAPI path without `/{id}`). */
export const REGISTRY: Record<string, Fixture> = {
  '/v1/accounts': { instance: 'account', patchBody: { registerCourt: 'Amtsgericht Charlottenburg' }, graphql: { one: 'account', update: 'updateAccount' } },
  '/v1/users': { instance: 'user', graphql: { one: 'user', many: 'users' } },
  '/v1/sites': {
    instance: 'site',
    createBody: async () => ({ name: `Site ${unique()}`, type: 'balanced_accurate', address }),
    patchBody: { name: 'Renamed' },
    graphql: { one: 'site', many: 'sites', create: 'createSite', update: 'updateSite', actions: ['deleteSite'] },
  },
  '/v1/electricity-products': {
    instance: 'product',
    createBody: async () => ({ name: `Product ${unique()}` }),
    patchBody: { description: 'Changed' },
    graphql: { one: 'electricityProduct', many: 'electricityProducts', create: 'createElectricityProduct', update: 'updateElectricityProduct' },
  },
  '/v1/customers': {
    instance: 'customer',
    createBody: async () => ({ lastName: `Customer ${unique()}` }),
    patchBody: { firstName: 'Changed' },
    graphql: { one: 'customer', many: 'customers', create: 'createCustomer', update: 'updateCustomer', actions: ['deleteCustomer'] },
  },
  '/v1/mpos': {
    instance: 'mpo',
    createBody: async () => ({ channel: 'smgw', provider: 'discovergy', name: `MPO ${unique()}` }),
    graphql: { one: 'mpo', many: 'mpos', create: 'createMpo' },
  },
  '/v1/meters': {
    instance: 'meter',
    createBody: async (w) => ({ siteId: w.site, mpoId: w.mpo, direction: 'consumer', identifier: `M-${unique()}`, measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00.000Z' }),
    patchBody: { serial: 'Changed' },
    graphql: { one: 'meter', many: 'meters', create: 'createMeter', update: 'updateMeter', actions: ['deleteMeter'] },
  },
  '/v1/contracts': {
    instance: 'contract',
    createBody: async (w) => ({ customerId: w.customer, electricityProductId: w.product, siteId: w.site, dunningBlock: false, startDate: '2026-01-01', number: `C-${unique()}` }),
    patchBody: { dunningBlock: true },
    graphql: { one: 'contract', many: 'contracts', create: 'createContract', update: 'updateContract', actions: ['deleteContract'] },
  },
  '/v1/contract-meters': {
    instance: 'contractMeter',
    createBody: async (w, api) => {
      const meter = await fixtures.meter(api, w.site);
      return { contractId: w.contract, siteId: w.site, meterId: meter.id, startDate: '2026-01-01' };
    },
    patchBody: { endDate: '2030-01-01' },
    graphql: { one: 'contractMeter', many: 'contractMeters', create: 'createContractMeter', update: 'updateContractMeter' },
  },
  '/v1/meter-balancing-settings': {
    instance: 'balancingSetting',
    createBody: async (w, api) => {
      const meter = await fixtures.meter(api, w.site);
      return { siteId: w.site, meterId: meter.id, balancing: 'participant', startDate: '2026-01-01', priority: 1 };
    },
    patchBody: { priority: 7 },
    graphql: { one: 'meterBalancingSetting', many: 'meterBalancingSettings', create: 'createMeterBalancingSetting', update: 'updateMeterBalancingSetting' },
  },
  '/v1/custom-attributes': {
    instance: 'customAttribute',
    createBody: async () => ({ title: 'Attr', name: `a${unique()}`, entity: 'customer', type: 'text' }),
    patchBody: { title: 'Changed' },
    graphql: { one: 'customAttribute', many: 'customAttributes', create: 'createCustomAttribute', update: 'updateCustomAttribute' },
  },
};

const range = 'startDateTime=2026-01-01T00:00:00.000Z&endDateTime=2026-01-02T00:00:00.000Z';
Object.assign(REGISTRY, {
  '/v1/measurements': {
    query: (w: World) => `meterId=${w.meter}&${range}`,
    createBody: async (w: World) => ({ measurements: [{ meterId: w.meter, timestamp: '2026-01-01T00:00:00.000Z', value: 1.5 }] }),
  },
  '/v1/aggregated-measurements': { query: (w: World) => `meterId=${w.meter}&${range}&interval=PT1H` },
  '/v1/aggregated-balances': { query: (w: World) => `siteId=${w.site}&startDateTime=2025-12-31T23:00:00.000Z&endDateTime=2026-01-01T23:00:00.000Z&interval=P1D` },
  '/v1/sites/{id}/balancing-status': { instance: 'site' },
  '/v1/tax-rates': {
    instance: 'taxRate',
    createBody: async () => ({ name: `VAT ${unique()}`, percentage: '19.00', validFrom: '2026-01-01' }),
    patchBody: { percentage: '7.00' },
    graphql: { one: 'taxRate', many: 'taxRates', create: 'createTaxRate', update: 'updateTaxRate' },
  },
  '/v1/price-component-groups': {
    instance: 'priceComponentGroup',
    createBody: async (w: World) => ({ electricityProductId: w.product, name: `Group ${unique()}`, position: 1 }),
    patchBody: { position: 5 },
    graphql: { one: 'priceComponentGroup', many: 'priceComponentGroups', create: 'createPriceComponentGroup', update: 'updatePriceComponentGroup' },
  },
  '/v1/price-components': {
    instance: 'priceComponent',
    createBody: async (w: World) => ({ priceComponentGroupId: w.priceComponentGroup, name: `Fee ${unique()}`, kind: 'base_fee', taxRateId: w.taxRate }),
    patchBody: { name: 'Renamed' },
    graphql: { one: 'priceComponent', many: 'priceComponents', create: 'createPriceComponent', update: 'updatePriceComponent' },
  },
  '/v1/templates': {
    instance: 'template',
    createBody: async () => ({ name: `Template ${unique()}`, kind: 'credit_note', locale: 'en-GB', subject: 'Credit' }),
    patchBody: { subject: 'Changed' },
    graphql: { one: 'template', many: 'templates', create: 'createTemplate', update: 'updateTemplate' },
  },
  '/v1/prices': {
    instance: 'price',
    createBody: async (w: World) => ({ priceComponentId: w.priceComponent, validFrom: `2027-01-${String(++versions).padStart(2, '0')}`, amount: '0.300000' }),
    patchBody: { amount: '0.310000' },
    graphql: { one: 'price', many: 'prices', create: 'createPrice', update: 'updatePrice' },
  },
  '/v1/payment-methods': {
    instance: 'paymentMethod',
    createBody: async (w: World) => ({ customerId: w.customer, type: 'bank_transfer', iban: 'GB82 WEST 1234 5698 7654 32' }),
    patchBody: { accountHolder: 'Changed' },
    graphql: { one: 'paymentMethod', many: 'paymentMethods', create: 'createPaymentMethod', update: 'updatePaymentMethod', actions: ['deletePaymentMethod'] },
  },
  '/v1/payments': {
    instance: 'payment',
    createBody: async (w: World) => paymentBody(w),
    patchBody: { reference: 'Changed' },
    graphql: { one: 'payment', many: 'payments', create: 'createPayment', update: 'updatePayment', batch: 'createPayments' },
  },
  '/v1/payments/batch': {
    collection: () => '/v1/payments',
    createBody: async (w: World) => ({ payments: [paymentBody(w), paymentBody(w)] }),
  },
  '/v1/prepayment-amounts': {
    instance: 'prepaymentAmount',
    createBody: async (w: World) => ({ contractId: w.contract, amount: '70.00', validFrom: `2027-01-${String(++versions).padStart(2, '0')}` }),
    patchBody: { amount: '65.00' },
    graphql: { one: 'prepaymentAmount', many: 'prepaymentAmounts', create: 'createPrepaymentAmount', update: 'updatePrepaymentAmount' },
  },
  '/v1/prepayment-requests': {
    instance: 'prepaymentRequest',
    createBody: async (w: World) => ({ contractId: w.contract, startDate: '2026-01-01', endDate: '2026-07-01' }),
    graphql: { one: 'prepaymentRequest', many: 'prepaymentRequests', create: 'createPrepaymentRequest' },
  },
  '/v1/events': { instance: 'event', graphql: { one: 'event', many: 'events' } },
  '/v1/webhook-endpoints': {
    instance: 'webhookEndpoint',
    createBody: async () => ({ url: `https://hooks.example.com/${unique()}`, events: ['site.created', 'site.updated'] }),
    patchBody: { headers: { 'X-Partner': 'changed' } },
    graphql: {
      one: 'webhookEndpoint',
      many: 'webhookEndpoints',
      create: 'createWebhookEndpoint',
      update: 'updateWebhookEndpoint',
      actions: ['deleteWebhookEndpoint', 'rotateWebhookEndpointSecret'],
    },
  },
  '/v1/webhook-endpoints/{id}/rotate-secret': { instance: 'webhookEndpoint', collection: () => '/v1/webhook-endpoints', createBody: async () => ({}) },
  '/v1/webhook-endpoints/{id}/deliveries': { instance: 'webhookEndpoint' },
  '/v1/webhook-deliveries': { instance: 'webhookDelivery' },
  '/v1/webhook-deliveries/{id}/retry': {
    instance: 'webhookDelivery',
    collection: (w: World) => `/v1/webhook-endpoints/${w.webhookEndpoint}/deliveries`,
    createBody: async () => ({}),
    graphql: { one: 'webhookEndpoint', actions: ['retryWebhookDelivery'] },
  },
  '/v1/bill-runs': {
    instance: 'billRun',
    createBody: async (w: World) => ({ periodStart: '2026-03-01', periodEnd: '2026-04-01', siteIds: [w.site] }),
    graphql: { one: 'billRun', many: 'billRuns', create: 'createBillRun', actions: ['completeBillRun', 'deleteBillRun'] },
  },
  '/v1/bill-runs/{id}/complete': { instance: 'billRun', collection: () => '/v1/bill-runs', createBody: async () => ({}) },
  '/v1/invoices': { instance: 'invoice', graphql: { one: 'invoice', many: 'invoices', actions: ['cancelInvoice'] } },
  '/v1/invoices/{id}/pdf': { instance: 'invoice' },
  '/v1/invoices/{id}/e-invoice': { instance: 'invoice' },
  '/v1/invoices/{id}/cancel': { instance: 'invoice', collection: () => '/v1/invoices', createBody: async () => ({}) },
  '/v1/line-items': { instance: 'lineItem', graphql: { one: 'lineItem', many: 'lineItems' } },
  '/v1/payment-runs': {
    instance: 'paymentRun',
    createBody: async (w: World, api: Api) => {
      await create(api, '/v1/payments', { contractId: w.contract, type: 'prepayment', amount: '10.00', dueDate: addDays('2025-01-01', ++collected) });
      return { type: 'direct_debit', collectionDate: collectionDate(), siteIds: [w.site] };
    },
    graphql: { one: 'paymentRun', many: 'paymentRuns', create: 'createPaymentRun', actions: ['cancelPaymentRun'] },
  },
  '/v1/payment-runs/{id}/items': { instance: 'paymentRun' },
  '/v1/payment-runs/{id}/file': { instance: 'paymentRun' },
  '/v1/payment-runs/{id}/cancel': { instance: 'paymentRun', collection: () => '/v1/payment-runs', createBody: async () => ({}) },
} satisfies Record<string, Fixture>);

/** Operations that need no token; they have their own tests (test/e2e/auth.test.ts). */
export const PUBLIC_OPERATIONS = ['POST /v1/oauth'];

export function fixtureFor(path: string): Fixture | undefined {
  return REGISTRY[path] ?? REGISTRY[path.replace(/\/\{id\}$/, '')];
}

/** The concrete URL of an operation's path in a world: its instance for `{id}`, its query otherwise. */
export function urlIn(path: string, world: World): string {
  const fixture = fixtureFor(path)!;
  if (path.includes('{id}')) return path.replace('{id}', world[fixture.instance!]);
  return fixture.query ? `${path}?${fixture.query(world)}` : path;
}
