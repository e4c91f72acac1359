import { createTaxRateCommand, listTaxRatesQuery, taxRateView, updateTaxRateCommand } from '../../core/billing/tax-rates.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** The billing catalogue (design.md §7). */
export function billingRoutes(s: Services): RouteSpec[] {
  return resourceRoutes({
    path: '/v1/tax-rates',
    tag: 'Tax rates',
    singular: 'TaxRate',
    plural: 'TaxRates',
    view: taxRateView,
    service: s.taxRates,
    create: createTaxRateCommand,
    list: listTaxRatesQuery,
    update: updateTaxRateCommand,
    conflicts: true,
  });
}
