import DataLoader from 'dataloader';
import type { Actor } from '../core/auth/actor.js';
import type { ContractMeterView, ContractView } from '../core/contracts/contracts.commands.js';
import type { PaymentRunItemView } from '../core/payments/payment-runs.commands.js';
import type { Services } from '../core/services.js';

type Batch<V> = (ids: readonly string[]) => Promise<V[]>;

function byId<V extends { id: string }>(fetch: Batch<V>): DataLoader<string, V | null> {
  return new DataLoader(async (ids) => {
    const found = new Map((await fetch(ids)).map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

function groupedBy<V>(fetch: Batch<V>, key: (row: V) => string): DataLoader<string, V[]> {
  return new DataLoader(async (ids) => {
    const groups = new Map<string, V[]>(ids.map((id) => [id, []]));
    for (const row of await fetch(ids)) groups.get(key(row))?.push(row);
    return ids.map((id) => groups.get(id)!);
  });
}

/** Per-request batching: one query per relation and request, whatever the number of rows. */
export function createLoaders(actor: Actor, services: Services, today: string) {
  const activeAssignment = new DataLoader<string, ContractMeterView | null>(async (meterIds) => {
    const found = new Map((await services.contractMeters.activeOnDate(actor, meterIds, today)).map((a) => [a.meterId, a]));
    return meterIds.map((id) => found.get(id) ?? null);
  });
  // A run can hold thousands of items: each page asked for is read per run in SQL, one statement per page.
  const runItems = new Map<string, DataLoader<string, PaymentRunItemView[]>>();
  const paymentRunItems = (page: Record<string, unknown>) => {
    const key = JSON.stringify(page);
    let loader = runItems.get(key);
    if (!loader) {
      loader = new DataLoader(async (runIds) => {
        const byRun = await services.paymentRuns.itemsOfRuns(actor, runIds, page);
        return runIds.map((id) => byRun.get(id) ?? []);
      });
      runItems.set(key, loader);
    }
    return loader;
  };
  return {
    paymentRunItems,
    site: byId((ids) => services.sites.getMany(actor, ids)),
    meter: byId((ids) => services.meters.getMany(actor, ids)),
    customer: byId((ids) => services.customers.getMany(actor, ids)),
    product: byId((ids) => services.products.getMany(actor, ids)),
    contract: byId<ContractView>((ids) => services.contracts.getMany(actor, ids)),
    metersBySite: groupedBy((ids) => services.meters.listBySites(actor, ids), (m) => m.siteId),
    contractsBySite: groupedBy((ids) => services.contracts.listBySites(actor, ids), (c) => c.siteId),
    contractsByCustomer: groupedBy((ids) => services.contracts.listByCustomers(actor, ids), (c) => c.customerId),
    settingsBySite: groupedBy((ids) => services.balancingSettings.listBySites(actor, ids), (s) => s.siteId),
    contractMetersByContract: groupedBy((ids) => services.contractMeters.listByContracts(actor, ids), (a) => a.contractId),
    activeAssignment,
    groupsByProduct: groupedBy((ids) => services.priceComponentGroups.listByProducts(actor, ids), (g) => g.electricityProductId),
    componentsByGroup: groupedBy((ids) => services.priceComponents.listByGroups(actor, ids), (c) => c.priceComponentGroupId),
    pricesByComponent: groupedBy((ids) => services.prices.listByComponents(actor, ids), (p) => p.priceComponentId),
    paymentMethodsByCustomer: groupedBy((ids) => services.paymentMethods.listByCustomers(actor, ids), (m) => m.customerId),
    paymentsByContract: groupedBy((ids) => services.payments.listByContracts(actor, ids), (p) => p.contractId),
    invoicesByContract: groupedBy((ids) => services.invoices.listByContracts(actor, ids), (i) => i.contractId),
    invoicesByCustomer: groupedBy((ids) => services.invoices.listByCustomers(actor, ids), (i) => i.customerId),
    lineItemsByInvoice: groupedBy((ids) => services.lineItems.listByInvoices(actor, ids), (l) => l.invoiceId),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
