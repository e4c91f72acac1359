import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { pageOf } from '../../core/pagination.js';
import type { InvoiceView } from '../../core/billing/invoices/invoices.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { EInvoiceProfileEnum } from '../enums.js';
import { ListArgs } from '../types/common.types.js';
import {
  BillRunInput,
  BillRunListArgs,
  BillRunListType,
  BillRunType,
  InvoiceListArgs,
  InvoiceListType,
  InvoiceType,
  LineItemListArgs,
  LineItemListType,
  LineItemType,
} from '../types/invoice.types.js';

@Resolver(() => BillRunType)
export class BillRunResolver extends crudResolver({
  name: 'BillRun',
  plural: 'BillRuns',
  type: BillRunType,
  list: BillRunListType,
  args: BillRunListArgs,
  input: BillRunInput,
  updatable: false,
  service: ({ services }) => services.billRuns,
}) {
  @Mutation(() => BillRunType, { description: 'Issues every draft of a created run in the background (also retries a failed completion)' })
  completeBillRun(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.billRuns.complete(actor, id);
  }

  @Mutation(() => BillRunType, { description: 'Deletes a run before completion, with its drafts; answers it as it was' })
  deleteBillRun(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.billRuns.delete(actor, id);
  }
}

@Resolver(() => InvoiceType)
export class InvoiceResolver extends crudResolver({
  name: 'Invoice',
  plural: 'Invoices',
  type: InvoiceType,
  list: InvoiceListType,
  args: InvoiceListArgs,
  service: ({ services }) => services.invoices,
}) {
  @FieldResolver(() => [LineItemType])
  async lineItems(@Root() invoice: InvoiceView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.lineItemsByInvoice.load(invoice.id), toPlain(page));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The EN 16931 e-invoice as UN/CEFACT CII D16B XML, like GET /v1/invoices/{id}/e-invoice; errors invoice_not_issued for a draft, e_invoice_incomplete',
  })
  async eInvoice(@Root() invoice: InvoiceView, @Arg('profile', () => EInvoiceProfileEnum, { nullable: true, defaultValue: 'xrechnung' }) profile: string | null, @Ctx() { actor, services }: GraphQLContext) {
    return (await services.invoices.eInvoice(actor, invoice.id, { profile: profile ?? undefined })).xml;
  }

  @Mutation(() => InvoiceType, { description: 'Cancels an issued or paid invoice; answers the credit note' })
  cancelInvoice(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.invoices.cancel(actor, id);
  }
}

@Resolver(() => LineItemType)
export class LineItemResolver extends crudResolver({
  name: 'LineItem',
  plural: 'LineItems',
  type: LineItemType,
  list: LineItemListType,
  args: LineItemListArgs,
  service: ({ services }) => services.lineItems,
}) {}
