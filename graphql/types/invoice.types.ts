import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { InvoiceDraftLineType, InvoiceTaxType } from './billing.types.js';
import { ListArgs } from './common.types.js';

@ObjectType('BillRunCounts')
export class BillRunCountsType {
  @Field(() => Int, { description: 'Contracts the run bills (while creating: handled and still to come)' }) total!: number;
  @Field(() => Int, { description: 'Contracts handled so far: an invoice or an error each' }) contracts!: number;
  @Field(() => Int) invoices!: number;
  @Field(() => Int) issued!: number;
  @Field(() => Int) errors!: number;
}

@ObjectType('BillRunError')
export class BillRunErrorType {
  @Field(() => ID) contractId!: string;
  @Field(() => String) code!: string;
  @Field(() => String) message!: string;
}

@ObjectType('BillRun')
export class BillRunType {
  @Field(() => ID) id!: string;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => [ID], { nullable: true, description: 'null: every site of the account' }) siteIds!: string[] | null;
  @Field(() => String, { description: 'creating, created, completing, completed or failed' }) state!: string;
  @Field(() => String, { description: 'create or complete: running, done last, or failed' }) phase!: string;
  @Field(() => String, { nullable: true }) failure!: string | null;
  @Field(() => BillRunCountsType) counts!: BillRunCountsType;
  @Field(() => [BillRunErrorType]) errors!: BillRunErrorType[];
  @Field(() => String, { nullable: true }) completedAt!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('BillRunList')
export class BillRunListType {
  @Field(() => [BillRunType]) data!: BillRunType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class BillRunListArgs extends ListArgs {
  @Field(() => String, { nullable: true }) state?: string;
}

@InputType('BillRunInput')
export class BillRunInput {
  @Field(() => String, { nullable: true }) periodStart?: string | null;
  @Field(() => String, { nullable: true }) periodEnd?: string | null;
  @Field(() => [ID], { nullable: true }) siteIds?: string[] | null;
}

@ObjectType('LineItem')
export class LineItemType extends InvoiceDraftLineType {
  @Field(() => ID) id!: string;
  @Field(() => ID) invoiceId!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => String) createdAt!: string;
}

@ObjectType('LineItemList')
export class LineItemListType {
  @Field(() => [LineItemType]) data!: LineItemType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class LineItemListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) invoiceId?: string;
  @Field(() => ID, { nullable: true }) contractId?: string;
}

@ObjectType('Invoice')
export class InvoiceType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'invoice or credit_note' }) kind!: string;
  @Field(() => String, { nullable: true, description: 'INV-YYYY-000001 / CN-YYYY-000001; null while draft' }) number!: string | null;
  @Field(() => ID) contractId!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) billRunId!: string | null;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => String, { description: 'draft, issued, paid or cancelled' }) state!: string;
  @Field(() => String) netTotal!: string;
  @Field(() => [InvoiceTaxType]) taxes!: InvoiceTaxType[];
  @Field(() => String) grossTotal!: string;
  @Field(() => String) prepaymentsTotal!: string;
  @Field(() => String, { description: 'Negative: a credit to the customer' }) amountDue!: string;
  @Field(() => String, { nullable: true }) issuedAt!: string | null;
  @Field(() => String, { nullable: true }) dueDate!: string | null;
  @Field(() => String, { nullable: true }) pdfUrl!: string | null;
  @Field(() => ID) templateId!: string;
  @Field(() => ID, { nullable: true }) cancelsInvoiceId!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('InvoiceList')
export class InvoiceListType {
  @Field(() => [InvoiceType]) data!: InvoiceType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class InvoiceListArgs extends ListArgs {
  @Field(() => String, { nullable: true }) state?: string;
  @Field(() => String, { nullable: true }) kind?: string;
  @Field(() => ID, { nullable: true }) contractId?: string;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => ID, { nullable: true }) billRunId?: string;
}
