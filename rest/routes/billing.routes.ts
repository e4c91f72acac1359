import {
  createPriceCommand,
  createPriceComponentCommand,
  createPriceComponentGroupCommand,
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
import { createTaxRateCommand, listTaxRatesQuery, taxRateView, updateTaxRateCommand } from '../../core/billing/catalogue/tax-rates.commands.js';
import { createTemplateCommand, listTemplatesQuery, templateView, updateTemplateCommand } from '../../core/billing/catalogue/templates.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** The billing catalogue: tax rates and the prices of electricity products. */
export function billingRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({
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
    }),
    ...resourceRoutes({
      path: '/v1/price-component-groups',
      tag: 'Prices',
      singular: 'PriceComponentGroup',
      plural: 'PriceComponentGroups',
      view: priceComponentGroupView,
      service: s.priceComponentGroups,
      create: createPriceComponentGroupCommand,
      list: listPriceComponentGroupsQuery,
      update: updatePriceComponentGroupCommand,
    }),
    ...resourceRoutes({
      path: '/v1/price-components',
      tag: 'Prices',
      singular: 'PriceComponent',
      plural: 'PriceComponents',
      view: priceComponentView,
      service: s.priceComponents,
      create: createPriceComponentCommand,
      list: listPriceComponentsQuery,
      update: updatePriceComponentCommand,
    }),
    ...resourceRoutes({
      path: '/v1/prices',
      tag: 'Prices',
      singular: 'Price',
      plural: 'Prices',
      view: priceView,
      service: s.prices,
      create: createPriceCommand,
      list: listPricesQuery,
      update: updatePriceCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/templates',
      tag: 'Templates',
      singular: 'Template',
      plural: 'Templates',
      view: templateView,
      service: s.templates,
      create: createTemplateCommand,
      list: listTemplatesQuery,
      update: updateTemplateCommand,
      conflicts: true,
    }),
  ];
}
