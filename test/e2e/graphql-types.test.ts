import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accountView, listUsersQuery, updateAccountCommand, userView } from '../../core/accounts/accounts.commands.js';
import { aggregatedBalancesQuery, aggregatedBalanceView } from '../../core/balancing/balancing.commands.js';
import { balancingSettingView, listBalancingSettingsQuery, updateBalancingSettingCommand } from '../../core/balancing/balancing-settings.commands.js';
import { billRunView, createBillRunCommand, listBillRunsQuery } from '../../core/billing/bill-runs/bill-runs.commands.js';
import {
  listPriceComponentGroupsQuery,
  listPriceComponentsQuery,
  listPricesQuery,
  priceComponentGroupView,
  priceComponentView,
  priceView,
  updatePriceCommand,
  updatePriceComponentCommand,
  updatePriceComponentGroupCommand,
} from '../../core/billing/catalogue/price-catalogue.commands.js';
import { listTaxRatesQuery, taxRateView, updateTaxRateCommand } from '../../core/billing/catalogue/tax-rates.commands.js';
import { listTemplatesQuery, templateView, updateTemplateCommand } from '../../core/billing/catalogue/templates.commands.js';
import { eInvoiceQuery, invoiceView, lineItemView, listInvoicesQuery, listLineItemsQuery } from '../../core/billing/invoices/invoices.commands.js';
import { contractMeterView, contractView, listContractMetersQuery, listContractsQuery, updateContractCommand, updateContractMeterCommand } from '../../core/contracts/contracts.commands.js';
import { customAttributeView, listCustomAttributesQuery, updateCustomAttributeCommand } from '../../core/custom-attributes/custom-attributes.commands.js';
import { customerView, listCustomersQuery, updateCustomerCommand } from '../../core/customers/customers.commands.js';
import { eventView, listEventsQuery } from '../../core/events/events.commands.js';
import { aggregatedMeasurementView, aggregateMeasurementsQuery, listMeasurementsQuery, measurementView } from '../../core/measurements/measurements.commands.js';
import { listMetersQuery, meterView, updateMeterCommand } from '../../core/meters/meters.commands.js';
import { createMpoCommand, listMposQuery, mpoView } from '../../core/mpos/mpos.commands.js';
import { listPaymentMethodsQuery, paymentMethodView, updatePaymentMethodCommand } from '../../core/payments/payment-methods.commands.js';
import { createPaymentRunCommand, listPaymentRunItemsQuery, listPaymentRunsQuery, paymentRunItemView, paymentRunView } from '../../core/payments/payment-runs.commands.js';
import { listPaymentsQuery, paymentView, updatePaymentCommand } from '../../core/payments/payments.commands.js';
import {
  createPrepaymentRequestCommand,
  listPrepaymentAmountsQuery,
  listPrepaymentRequestsQuery,
  prepaymentAmountView,
  prepaymentRequestView,
  updatePrepaymentAmountCommand,
} from '../../core/payments/prepayments.commands.js';
import { listProductsQuery, productView, updateProductCommand } from '../../core/products/products.commands.js';
import { listSitesQuery, siteView, updateSiteCommand } from '../../core/sites/sites.commands.js';
import { deliveryView, listDeliveriesQuery, listWebhookEndpointsQuery, updateWebhookEndpointCommand, webhookEndpointView, webhookEndpointWithSecretView } from '../../core/webhooks/webhooks.commands.js';
import { buildGraphQLSchema } from '../../graphql/schema.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, fixtures } from '../support/fixtures.js';

/**
 * Every core view and the GraphQL object type that shows it, with the type's relations: fields
 * resolved from other resources, which no view has. Nested objects of a view are compared with
 * the GraphQL type of the same field.
 */
const VIEWS: Array<{ view: z.ZodObject; type: string; relations?: string[] }> = [
  { view: siteView, type: 'Site', relations: ['meters', 'contracts', 'balancingSettings', 'balances'] },
  { view: meterView, type: 'Meter', relations: ['site', 'contract', 'measurements', 'balances', 'aggregatedMeasurements'] },
  { view: mpoView, type: 'Mpo' },
  { view: measurementView, type: 'Measurement' },
  { view: aggregatedMeasurementView, type: 'AggregatedMeasurement' },
  { view: aggregatedBalanceView, type: 'AggregatedBalance' },
  { view: customerView, type: 'Customer', relations: ['contracts', 'paymentMethods', 'invoices'] },
  { view: productView, type: 'ElectricityProduct', relations: ['priceComponentGroups'] },
  { view: contractView, type: 'Contract', relations: ['customer', 'electricityProduct', 'site', 'contractMeters', 'meters', 'draftInvoice', 'payments', 'invoices'] },
  { view: contractMeterView, type: 'ContractMeter', relations: ['contract', 'meter'] },
  { view: balancingSettingView, type: 'MeterBalancingSetting', relations: ['meter'] },
  { view: customAttributeView, type: 'CustomAttribute' },
  { view: userView, type: 'User' },
  { view: accountView, type: 'Account' },
  { view: taxRateView, type: 'TaxRate' },
  { view: priceComponentGroupView, type: 'PriceComponentGroup', relations: ['priceComponents'] },
  { view: priceComponentView, type: 'PriceComponent', relations: ['prices'] },
  { view: priceView, type: 'Price' },
  { view: templateView, type: 'Template' },
  { view: paymentMethodView, type: 'PaymentMethod' },
  { view: paymentView, type: 'Payment' },
  { view: prepaymentAmountView, type: 'PrepaymentAmount' },
  { view: prepaymentRequestView, type: 'PrepaymentRequest' },
  { view: paymentRunView, type: 'PaymentRun', relations: ['items'] },
  { view: paymentRunItemView, type: 'PaymentRunItem' },
  { view: billRunView, type: 'BillRun' },
  { view: invoiceView, type: 'Invoice', relations: ['lineItems', 'eInvoice'] },
  { view: lineItemView, type: 'LineItem' },
  { view: eventView, type: 'Event' },
  // One GraphQL type for both views: the secret is there only in the answers that carry it.
  { view: webhookEndpointView.extend({ secret: webhookEndpointWithSecretView.shape.secret.nullable() }), type: 'WebhookEndpoint', relations: ['deliveries'] },
  { view: deliveryView, type: 'WebhookDelivery' },
];

/** Object types whose core shape is a TypeScript interface, not a zod view. */
const WITHOUT_VIEW = ['InvoiceDraft', 'InvoiceDraftLine'];

/**
 * The arguments of a field and core's query schema that checks them; `given` are the query's
 * fields the parent object supplies.
 */
const ARGUMENTS: Array<{ query: z.ZodObject; field: string; given?: string[] }> = [
  { query: listSitesQuery, field: 'Query.sites' },
  { query: listMetersQuery, field: 'Query.meters' },
  { query: listMposQuery, field: 'Query.mpos' },
  { query: listCustomersQuery, field: 'Query.customers' },
  { query: listProductsQuery, field: 'Query.electricityProducts' },
  { query: listContractsQuery, field: 'Query.contracts' },
  { query: listContractMetersQuery, field: 'Query.contractMeters' },
  { query: listBalancingSettingsQuery, field: 'Query.meterBalancingSettings' },
  { query: listCustomAttributesQuery, field: 'Query.customAttributes' },
  { query: listUsersQuery, field: 'Query.users' },
  { query: listTaxRatesQuery, field: 'Query.taxRates' },
  { query: listPriceComponentGroupsQuery, field: 'Query.priceComponentGroups' },
  { query: listPriceComponentsQuery, field: 'Query.priceComponents' },
  { query: listPricesQuery, field: 'Query.prices' },
  { query: listTemplatesQuery, field: 'Query.templates' },
  { query: listPaymentMethodsQuery, field: 'Query.paymentMethods' },
  { query: listPaymentsQuery, field: 'Query.payments' },
  { query: listPrepaymentAmountsQuery, field: 'Query.prepaymentAmounts' },
  { query: listPrepaymentRequestsQuery, field: 'Query.prepaymentRequests' },
  { query: listPaymentRunsQuery, field: 'Query.paymentRuns' },
  { query: listBillRunsQuery, field: 'Query.billRuns' },
  { query: listInvoicesQuery, field: 'Query.invoices' },
  { query: listLineItemsQuery, field: 'Query.lineItems' },
  { query: listEventsQuery, field: 'Query.events' },
  { query: listWebhookEndpointsQuery, field: 'Query.webhookEndpoints' },
  { query: listDeliveriesQuery, field: 'WebhookEndpoint.deliveries' },
  { query: listPaymentRunItemsQuery, field: 'PaymentRun.items' },
  { query: listMeasurementsQuery, field: 'Meter.measurements', given: ['meterId'] },
  { query: aggregateMeasurementsQuery, field: 'Meter.aggregatedMeasurements', given: ['meterId'] },
  { query: aggregatedBalancesQuery, field: 'Meter.balances', given: ['debitorMeterId', 'creditorMeterId', 'siteId'] },
  { query: aggregatedBalancesQuery, field: 'Site.balances', given: ['debitorMeterId', 'creditorMeterId', 'siteId'] },
  { query: eInvoiceQuery, field: 'Invoice.eInvoice' },
];

/**
 * Every input and core's command that checks it: the merge patch where there is one (every field,
 * all optional), else the create command.
 */
const INPUTS: Array<{ command: z.ZodObject; type: string; omitted?: string[] }> = [
  { command: updateSiteCommand, type: 'SiteInput' },
  { command: updateMeterCommand, type: 'MeterInput' },
  { command: createMpoCommand, type: 'MpoInput' },
  { command: updateCustomerCommand, type: 'CustomerInput' },
  { command: updateProductCommand, type: 'ElectricityProductInput' },
  { command: updateContractCommand, type: 'ContractInput' },
  { command: updateContractMeterCommand, type: 'ContractMeterInput' },
  { command: updateBalancingSettingCommand, type: 'MeterBalancingSettingInput' },
  { command: updateCustomAttributeCommand, type: 'CustomAttributeInput' },
  { command: updateAccountCommand, type: 'AccountInput' },
  { command: updateTaxRateCommand, type: 'TaxRateInput' },
  { command: updatePriceComponentGroupCommand, type: 'PriceComponentGroupInput' },
  { command: updatePriceComponentCommand, type: 'PriceComponentInput' },
  { command: updatePriceCommand, type: 'PriceInput' },
  { command: updateTemplateCommand, type: 'TemplateInput' },
  { command: updatePaymentMethodCommand, type: 'PaymentMethodInput' },
  // lockedAt: core takes only null for it (the system sets it), so GraphQL leaves it out.
  { command: updatePaymentCommand, type: 'PaymentInput', omitted: ['lockedAt'] },
  { command: updatePrepaymentAmountCommand, type: 'PrepaymentAmountInput' },
  { command: createPrepaymentRequestCommand, type: 'PrepaymentRequestInput' },
  { command: updateWebhookEndpointCommand, type: 'WebhookEndpointInput' },
  { command: createBillRunCommand, type: 'BillRunInput' },
  { command: createPaymentRunCommand, type: 'PaymentRunInput' },
];

/** Closed sets kept a String in GraphQL on purpose (see graphql/types/event.types.ts). */
const KEPT_STRINGS = ['Event.type', 'Query.events(type)', 'WebhookEndpointInput.events[]'];

interface Shape {
  schema: z.ZodType;
  nullable: boolean;
  /** The metadata of the schema and its wrappers, the outermost first. */
  meta: Record<string, unknown>;
}

/** The value type under a view's or query's wrappers: nullable, optional, defaults and transforms. */
function shapeOf(schema: z.ZodType): Shape {
  let current = schema;
  let nullable = false;
  const meta: Record<string, unknown> = {};
  for (;;) {
    for (const [key, value] of Object.entries(current.meta() ?? {})) meta[key] ??= value;
    const def = current.def as Record<string, any>;
    if (def.type === 'pipe') current = def.in;
    else if (def.type === 'nullable' || def.type === 'optional' || def.type === 'default') {
      nullable = true;
      current = def.innerType;
    } else return { schema: current, nullable, meta };
  }
}

/** What GraphQL type a zod leaf stands for; plain strings may be Decimal, which views do not mark. */
function expectedNames({ schema, meta }: Shape): string[] {
  if (meta.type === 'integer') return ['Int'];
  const def = schema.def as Record<string, any>;
  switch (def.type) {
    case 'string':
      if (meta.format === 'date') return ['Date'];
      if (meta.format === 'date-time') return ['DateTime'];
      return def.format === 'uuid' ? ['ID'] : ['String', 'Decimal'];
    case 'number':
      return (schema as z.ZodNumber).isInt ? ['Int'] : ['Float'];
    case 'boolean':
      return ['Boolean'];
    case 'record':
    case 'union':
    case 'unknown':
      return ['JSONObject'];
    default:
      return [`zod ${def.type}`];
  }
}

interface Check {
  /** Object types compared so far. */
  seen: Set<string>;
  /** Inputs are nullable throughout: core, not GraphQL, says what is required. */
  nullability: boolean;
}

/** Differences between a zod schema and the GraphQL type at `path`, as readable lines. */
function compare(schema: z.ZodType, type: GraphQLOutputType | GraphQLInputType, path: string, check: Check): string[] {
  const shape = shapeOf(schema);
  const nullable = !isNonNullType(type);
  const named = getNullableType(type);
  const problems =
    !check.nullability || shape.nullable === nullable ? [] : [`${path}: ${shape.nullable ? 'nullable' : 'non-null'} in core, ${nullable ? 'nullable' : 'non-null'} in GraphQL`];
  const def = shape.schema.def as Record<string, any>;
  if (def.type === 'array' || isListType(named)) {
    if (def.type !== 'array' || !isListType(named)) return [...problems, `${path}: a list on one side only`];
    return [...problems, ...compare(def.element, named.ofType, `${path}[]`, check)];
  }
  if (def.type === 'object') {
    if (!isObjectType(named) && !isInputObjectType(named)) return [...problems, `${path}: an object in core, ${named} in GraphQL`];
    return [...problems, ...compareObject(shape.schema as z.ZodObject, named, {}, path, check)];
  }
  if (def.type === 'enum') {
    if (KEPT_STRINGS.includes(path)) return isScalarType(named) && named.name === 'String' ? problems : [...problems, `${path}: kept a String, but is ${named}`];
    if (!isEnumType(named)) return [...problems, `${path}: an enum in core, ${named} in GraphQL`];
    const values = named.getValues().map((value) => String(value.value)).join(', ');
    const options = (shape.schema as z.ZodEnum).options.join(', ');
    return values === options ? problems : [...problems, `${path}: ${named} holds ${values}; core ${options}`];
  }
  const expected = expectedNames(shape);
  return expected.includes(String(named)) ? problems : [...problems, `${path}: ${expected.join(' or ')} in core, ${named} in GraphQL`];
}

/**
 * Field by field; `relations` are GraphQL fields no view has, `omitted` core fields GraphQL leaves
 * out. Read-only fields a patch may echo are no input.
 */
function compareObject(
  object: z.ZodObject,
  type: GraphQLObjectType | GraphQLInputObjectType,
  { relations = [], omitted = [] }: { relations?: string[]; omitted?: string[] },
  path: string,
  check: Check,
): string[] {
  check.seen.add(type.name);
  const fields: Record<string, { type: GraphQLOutputType | GraphQLInputType }> = type.getFields();
  const names = Object.keys(fields).filter((name) => !relations.includes(name));
  const keys = Object.keys(object.shape).filter((key) => !omitted.includes(key) && !(isInputObjectType(type) && shapeOf(object.shape[key] as z.ZodType).meta.readOnly));
  return [
    ...keys.filter((key) => !names.includes(key)).map((key) => `${path}.${key}: in core only`),
    ...names.filter((name) => !keys.includes(name)).map((name) => `${path}.${name}: in GraphQL only`),
    ...relations.filter((name) => !fields[name] || keys.includes(name)).map((name) => `${path}.${name}: not a relation`),
    ...keys.filter((key) => names.includes(key)).flatMap((key) => compare(object.shape[key] as z.ZodType, fields[key]!.type, `${path}.${key}`, check)),
  ];
}

function fieldAt(schema: GraphQLSchema, path: string): GraphQLField<unknown, unknown> {
  const [typeName, fieldName] = path.split('.') as [string, string];
  const type = schema.getType(typeName) as GraphQLObjectType;
  return type.getFields()[fieldName]!;
}

describe('the GraphQL types and core’s views', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildGraphQLSchema();
  });

  it('shows every view field with the same name, kind and nullability', () => {
    const check = { seen: new Set<string>(), nullability: true };
    const problems = VIEWS.flatMap(({ view, type, relations }) => compareObject(view, schema.getType(type) as GraphQLObjectType, { relations }, type, check));
    expect(problems).toEqual([]);
    const objectTypes = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && !type.name.startsWith('__'));
    const unchecked = objectTypes
      .map((type) => type.name)
      .filter((name) => !check.seen.has(name) && !WITHOUT_VIEW.includes(name) && !['Query', 'Mutation'].includes(name) && !/List$/.test(name));
    expect(unchecked).toEqual([]);
  });

  it('takes the arguments core’s query schemas take, with the same kinds', () => {
    const problems = ARGUMENTS.flatMap(({ query, field, given = [] }) => {
      const args = fieldAt(schema, field).args;
      const byName = new Map(args.map((arg: GraphQLArgument) => [arg.name, arg]));
      const keys = Object.keys(query.shape).filter((key) => !given.includes(key));
      return [
        ...keys.filter((key) => !byName.has(key)).map((key) => `${field}(${key}): in core only`),
        ...args.filter((arg) => !keys.includes(arg.name)).map((arg) => `${field}(${arg.name}): in GraphQL only`),
        ...keys.filter((key) => byName.has(key)).flatMap((key) => compare(query.shape[key] as z.ZodType, byName.get(key)!.type, `${field}(${key})`, { seen: new Set(), nullability: true })),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('accepts the fields core’s commands take, with the same kinds', () => {
    const check = { seen: new Set<string>(), nullability: false };
    const problems = INPUTS.flatMap(({ command, type, omitted }) => compareObject(command, schema.getType(type) as GraphQLInputObjectType, { omitted }, type, check));
    expect(problems).toEqual([]);
    const inputTypes = Object.values(schema.getTypeMap()).filter((type) => isInputObjectType(type));
    expect(inputTypes.map((type) => type.name).filter((name) => !check.seen.has(name))).toEqual([]);
  });

  it('answers every page as { data, total } of its type', () => {
    const lists = Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && /List$/.test(type.name));
    expect(lists.length).toBeGreaterThan(20);
    for (const list of lists) {
      const fields = list.getFields();
      expect(Object.keys(fields), list.name).toEqual(['data', 'total']);
      expect(String(fields.data!.type), list.name).toBe(`[${list.name.replace(/List$/, '')}!]!`);
      expect(String(fields.total!.type), list.name).toBe('Int!');
    }
  });
});

describe('GraphQL enums, scalars and lookups over the wire', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp({ WORKER: 'off' });
    a = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('answers an unknown id with null and a not_found error, leaving the fields beside it', async () => {
    const site = await fixtures.site(a.api);
    const response = await a.api.graphql('query($id: ID!, $unknown: ID!) { site(id: $id) { id } missing: site(id: $unknown) { id } meter(id: $unknown) { id } sites { total } }', {
      id: site.id,
      unknown: '00000000-0000-4000-8000-000000000000',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ site: { id: site.id }, missing: null, meter: null, sites: { total: 1 } });
    expect(Object.fromEntries(response.body.errors.map((e: any) => [e.path.join('.'), e.extensions]))).toEqual({
      missing: { code: 'site_not_found', kind: 'not_found' },
      meter: { code: 'meter_not_found', kind: 'not_found' },
    });
  });

  it('writes enum values, dates, instants and decimals as REST shows them', async () => {
    const site = (
      await a.api.graphql('mutation { createSite(input: { name: "Hof", type: balanced_accurate, allocationKey: static, allocationKeyValidFrom: "2026-03-01", address: { locality: "Bonn", postCode: "53111", country: "DE" } }) { id type balanceResolution allocationKey allocationKeyValidFrom createdAt } }')
    ).body.data.createSite;
    const rest = (await a.api.get(`/v1/sites/${site.id}`)).body;
    expect(site).toEqual({ id: rest.id, type: 'balanced_accurate', balanceResolution: 'PT15M', allocationKey: 'static', allocationKeyValidFrom: '2026-03-01', createdAt: rest.createdAt });
    expect(site.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const product = await fixtures.product(a.api);
    const customer = await fixtures.customer(a.api);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    const payment = await a.api.graphql('mutation($input: PaymentInput!) { createPayment(input: $input) { id amount type state dueDate receivedAt } }', {
      input: { contractId: contract.id, amount: '12.30', type: 'payment', state: 'received', receivedAt: '2026-02-01T09:30:00.000Z' },
    });
    expect(payment.body.errors).toBeUndefined();
    const stored = (await a.api.get(`/v1/payments/${payment.body.data.createPayment.id}`)).body;
    expect(payment.body.data.createPayment).toEqual({ id: stored.id, amount: '12.30', type: 'payment', state: 'received', dueDate: stored.dueDate, receivedAt: '2026-02-01T09:30:00.000Z' });
    const filtered = await a.api.graphql('query($state: PaymentState) { received: payments(state: $state) { total } pending: payments(state: pending) { total } }', { state: 'received' });
    expect(filtered.body.data).toEqual({ received: { total: 1 }, pending: { total: 0 } });
  });

  it('writes a template locale with _ for the - no GraphQL name can hold', async () => {
    const rest = await create(a.api, '/v1/templates', { name: 'Englisch', kind: 'invoice', locale: 'en-GB' });
    const read = await a.api.graphql('query($id: ID!) { template(id: $id) { kind locale } }', { id: rest.id });
    expect(read.body.data.template).toEqual({ kind: 'invoice', locale: 'en_GB' });
    const updated = await a.api.graphql('mutation($id: ID!) { updateTemplate(id: $id, input: { locale: de_DE }) { locale } }', { id: rest.id });
    expect(updated.body.data.updateTemplate.locale).toBe('de_DE');
    expect((await a.api.get(`/v1/templates/${rest.id}`)).body.locale).toBe('de-DE');
  });

  it('refuses values of the wrong type before core, and leaves the rules of each field to core', async () => {
    const site = await fixtures.site(a.api);
    const meter = await fixtures.meter(a.api, site.id);
    const before = (await a.api.get('/v1/meters')).body.total;
    const badDate = await a.api.graphql('mutation($input: MeterInput!) { createMeter(input: $input) { id } }', {
      input: { siteId: site.id, direction: 'consumer', identifier: 'GQL-T-1', measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00Z' },
    });
    expect(badDate.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(badDate.body.errors[0].message).toContain('input.startDate');
    const badEnum = await a.api.graphql('mutation { createMeter(input: { direction: sideways }) { id } }');
    expect(badEnum.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const literal = await a.api.graphql(`query { meter(id: "${meter.id}") { balances(startDateTime: "2026-01-01", endDateTime: "2026-01-02T00:00:00.000Z", interval: P1D) { total } } }`);
    expect(literal.body.errors[0]).toMatchObject({ message: expect.stringContaining('Expected value of type "DateTime!"'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect((await a.api.get('/v1/meters')).body.total).toBe(before);

    const product = await fixtures.product(a.api);
    const customer = await fixtures.customer(a.api);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    const payment = (input: Record<string, unknown>) =>
      a.api.graphql('mutation($input: PaymentInput!) { createPayment(input: $input) { id } }', { input: { contractId: contract.id, type: 'payment', dueDate: '2026-02-01', ...input } });
    const float = await payment({ amount: 12.3 });
    expect([float.status, float.body.errors[0].extensions.code]).toEqual([400, 'BAD_USER_INPUT']);
    expect(float.body.errors[0].message).toContain('A Decimal is written as a string');
    const scale = await payment({ amount: '12.345' });
    expect(scale.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ path: 'amount', code: 'invalid_amount' }] });
    const rest = await a.api.post('/v1/payments', { contractId: contract.id, type: 'payment', dueDate: '2026-02-01', amount: '12.345' });
    expect(rest.body.errors.map((e: any) => [e.path, e.code])).toEqual([['amount', 'invalid_amount']]);
  });
});
