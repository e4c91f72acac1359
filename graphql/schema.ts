import type { GraphQLSchema } from 'graphql';
import { printSchema } from 'graphql';
import { buildSchema, type MiddlewareFn } from 'type-graphql';
import { assertCanWrite } from '../core/auth/actor.js';
import type { GraphQLContext } from './context.js';
import { BalancingSettingResolver, ContractMeterResolver, ContractResolver } from './resolvers/contract.resolver.js';
import { CustomAttributeResolver, CustomerResolver, ProductResolver, UserResolver } from './resolvers/customer.resolver.js';
import { MeterResolver, MpoResolver } from './resolvers/meter.resolver.js';
import { PaymentMethodResolver, PaymentResolver, PrepaymentAmountResolver, PrepaymentRequestResolver } from './resolvers/payment.resolver.js';
import { EventResolver } from './resolvers/event.resolver.js';
import { WebhookEndpointResolver } from './resolvers/webhook.resolver.js';
import { SiteResolver } from './resolvers/site.resolver.js';
import { BillRunResolver, InvoiceResolver, LineItemResolver } from './resolvers/invoice.resolver.js';
import { PaymentRunResolver } from './resolvers/payment-run.resolver.js';
import { PriceComponentGroupResolver, PriceComponentResolver, PriceResolver, ProductPricesResolver, TaxRateResolver, TemplateResolver } from './resolvers/billing.resolver.js';

/** Every mutation is a write: viewers get `forbidden` before any resolver runs. */
const writesNeedAdmin: MiddlewareFn<GraphQLContext> = ({ info, context }, next) => {
  if (info.parentType.name === 'Mutation') assertCanWrite(context.actor);
  return next();
};

export async function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      SiteResolver,
      MeterResolver,
      MpoResolver,
      CustomerResolver,
      ProductResolver,
      ContractResolver,
      ContractMeterResolver,
      BalancingSettingResolver,
      CustomAttributeResolver,
      UserResolver,
      TaxRateResolver,
      PriceComponentGroupResolver,
      PriceComponentResolver,
      PriceResolver,
      ProductPricesResolver,
      TemplateResolver,
      PaymentMethodResolver,
      PaymentResolver,
      PrepaymentAmountResolver,
      PrepaymentRequestResolver,
      EventResolver,
      WebhookEndpointResolver,
      BillRunResolver,
      PaymentRunResolver,
      InvoiceResolver,
      LineItemResolver,
    ],
    validate: false,
    globalMiddlewares: [writesNeedAdmin],
  });
}

export async function printGraphQLSchema(): Promise<string> {
  return `${printSchema(await buildGraphQLSchema())}\n`;
}
