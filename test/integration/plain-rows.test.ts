import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../core/persistence/orm.js';
import { plainRows } from '../../core/persistence/plain-rows.js';
import { ContractEntity, ContractMeterEntity } from '../../core/persistence/contracts/contract.persistence.js';
import { CustomerEntity } from '../../core/persistence/customers/customer.persistence.js';
import { InvoiceEntity, LineItemEntity } from '../../core/persistence/billing/invoice.persistence.js';
import { MeterEntity } from '../../core/persistence/meters/meter.persistence.js';
import { MikroPaymentMethodRepository, PaymentMethodEntity } from '../../core/persistence/payments/payment.persistence.js';
import { queryRows } from '../support/database.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { create, fixtures } from '../support/fixtures.js';
import { directDebit } from '../support/registry.js';

describe('plain rows', () => {
  let app: TestApp;
  let orm: MikroORM;
  let accountId: string;
  let customerIds: string[];

  beforeAll(async () => {
    app = await startTestApp();
    const { api, ...signedUp } = await app.signUp('Plain rows');
    accountId = signedUp.accountId;
    const site = await fixtures.site(api);
    const meters = [await fixtures.meter(api, site.id), await fixtures.meter(api, site.id)];
    const product = await fixtures.product(api);
    await create(api, '/v1/custom-attributes', { title: 'Floor', name: 'floor', entity: 'customer', type: 'number' });
    const customers = [
      await fixtures.customer(api, { companyName: 'Muster GmbH', vatId: 'DE136695976', invoiceFormat: 'xrechnung', buyerReference: '04011000-1234512345-06', customAttributes: { floor: 3 } }),
      await fixtures.customer(api, { deliveryAddress: { line1: 'Nebenweg 7', line2: 'Wohnung 3', locality: 'Köln', postCode: '50667', country: 'DE' }, email: 'erika@example.org' }),
    ];
    // A mandate (a date column, nulls) and a transfer, default last, for the first customer; none for the second.
    await create(api, '/v1/payment-methods', { customerId: customers[0]!.id, ...directDebit });
    await create(api, '/v1/payment-methods', { customerId: customers[0]!.id, type: 'bank_transfer', isDefault: true });
    customerIds = customers.map((customer) => customer.id);
    for (const [i, customer] of customers.entries()) {
      const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id }, i === 0 ? { endDate: '2026-12-01', noticePeriod: 'P1M' } : {});
      await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meters[i]!.id, startDate: '2026-01-01', ...(i === 0 ? { endDate: '2026-06-01' } : {}) });
    }
    // An issued invoice with its lines, as a bill run writes them (big amounts, a JSON tax breakdown, nulls).
    const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
    const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Arbeitspreis', kind: 'local_energy', taxRateId: vat.id });
    const price = await create(api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount: '0.245000' });
    const [contract] = await queryRows(app.database.url, 'select id, customer_id from contracts where account_id = $1 order by id limit 1', [accountId]);
    const [template] = await queryRows(app.database.url, 'select id from templates where account_id = $1 limit 1', [accountId]);
    const invoiceId = randomUUID();
    await queryRows(
      app.database.url,
      `insert into invoices (id, account_id, kind, number, contract_id, customer_id, bill_run_id, period_start, period_end, state, net_total, taxes, gross_total,
         prepayments_total, amount_due, prepayment_ids, issued_at, due_date, template_id, cancels_invoice_id, created_at, updated_at)
       values ($1, $2, 'invoice', 'INV-2026-000001', $3, $4, null, '2026-10-01', '2026-11-01', 'issued', 9007199254740993, $5, 9007199254741000,
         0, 9007199254741000, '[]', '2026-11-03 09:15:00.123+00', '2026-11-17', $6, null, now(), now())`,
      [invoiceId, accountId, contract!.id, contract!.customer_id, JSON.stringify([{ netAmount: '9007199254740993', taxAmount: '7', taxRateId: vat.id, percentage: '1900' }]), template!.id],
    );
    for (const [position, meterId] of [[0, meters[0]!.id], [1, null]] as const) {
      await queryRows(
        app.database.url,
        `insert into line_items (id, account_id, invoice_id, contract_id, position, description, kind, quantity, quantity_scale, unit, unit_price, net_amount,
           tax_rate_id, tax_rate, period_start, period_end, price_component_id, price_id, meter_id, created_at)
         values ($1, $2, $3, $4, $5, 'Arbeitspreis', 'local_energy', 180000, 3, 'kWh', 245000, 4410, $6, 1900, '2026-10-01', '2026-11-01', $7, $8, $9, now())`,
        [randomUUID(), accountId, invoiceId, contract!.id, position, vat.id, component.id, price.id, meterId],
      );
    }
    orm = await openOrm({ clientUrl: app.database.url, poolSize: 1 });
  });
  afterAll(async () => {
    await orm?.close();
    await app?.close();
  });

  it.each([
    ['contracts', ContractEntity],
    ['contract meters', ContractMeterEntity],
    ['customers', CustomerEntity],
    ['meters', MeterEntity],
    ['invoices', InvoiceEntity],
    ['line items', LineItemEntity],
    ['payment methods', PaymentMethodEntity],
  ] as const)('reads %s as MikroORM hydrates them: the same class, properties and values', async (_name, entity) => {
    const em = orm.em.fork();
    const found = await em.find(entity as never, { accountId } as never, { orderBy: { id: 'asc' } as never, disableIdentityMap: true });
    const plain = await plainRows(em, entity as never, 'account_id = ? order by id', [accountId]);
    expect(found.length).toBeGreaterThan(0);
    expect(plain).toStrictEqual(found);
    expect(plain.map((record) => Object.getPrototypeOf(record))).toEqual(found.map((record) => Object.getPrototypeOf(record)));
    // Outside the unit of work: nothing to write.
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
  });

  it("reads customers' payment methods oldest first, outside the unit of work", async () => {
    const em = orm.em.fork();
    const found = await em.find(PaymentMethodEntity, { accountId }, { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true });
    const read = await new MikroPaymentMethodRepository(em).readByCustomerIds(accountId, customerIds);
    expect(read.map((method) => [method.type, method.isDefault, method.mandateSignedAt])).toEqual([
      ['sepa_direct_debit', false, '2026-01-01'],
      ['bank_transfer', true, null],
    ]);
    expect(read).toStrictEqual(found);
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
    expect(await new MikroPaymentMethodRepository(em).readByCustomerIds(accountId, [])).toEqual([]);
    expect(await new MikroPaymentMethodRepository(em).readByCustomerIds(accountId, [customerIds[1]!])).toEqual([]);
  });
});
