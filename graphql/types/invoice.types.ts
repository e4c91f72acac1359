import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { INVOICE_STATE_DESCRIPTION } from '../../core/billing/invoices/invoices.commands.js';
import { BillRunPhaseEnum, BillRunStateEnum, InvoiceKindEnum, InvoiceStateEnum } from '../enums.js';
import { DateScalar, DateTimeScalar, DecimalScalar } from '../scalars.js';
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
  @Field(() => DateScalar) periodStart!: string;
  @Field(() => DateScalar) periodEnd!: string;
  @Field(() => [ID], { nullable: true, description: 'null: every site of the account' }) siteIds!: string[] | null;
  @Field(() => BillRunStateEnum) state!: string;
  @Field(() => BillRunPhaseEnum, { description: 'The phase running or done last; with state failed, the one that failed' }) phase!: string;
  @Field(() => String, { nullable: true }) failure!: string | null;
  @Field(() => BillRunCountsType) counts!: BillRunCountsType;
  @Field(() => [BillRunErrorType]) errors!: BillRunErrorType[];
  @Field(() => DateTimeScalar, { nullable: true }) completedAt!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('BillRunList')
export class BillRunListType {
  @Field(() => [BillRunType]) data!: BillRunType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class BillRunListArgs extends ListArgs {
  @Field(() => BillRunStateEnum, { nullable: true }) state?: string;
}

@InputType('BillRunInput')
export class BillRunInput {
  @Field(() => DateScalar, { nullable: true }) periodStart?: string | null;
  @Field(() => DateScalar, { nullable: true }) periodEnd?: string | null;
  @Field(() => [ID], { nullable: true }) siteIds?: string[] | null;
}

@ObjectType('LineItem')
export class LineItemType extends InvoiceDraftLineType {
  @Field(() => ID) id!: string;
  @Field(() => ID) invoiceId!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
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
  @Field(() => InvoiceKindEnum) kind!: string;
  @Field(() => String, { nullable: true, description: 'INV-YYYY-000001 / CN-YYYY-000001; null while draft' }) number!: string | null;
  @Field(() => ID) contractId!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) billRunId!: string | null;
  @Field(() => DateScalar) periodStart!: string;
  @Field(() => DateScalar) periodEnd!: string;
  @Field(() => InvoiceStateEnum, { description: INVOICE_STATE_DESCRIPTION }) state!: string;
  @Field(() => DecimalScalar) netTotal!: string;
  @Field(() => [InvoiceTaxType]) taxes!: InvoiceTaxType[];
  @Field(() => DecimalScalar) grossTotal!: string;
  @Field(() => DecimalScalar) prepaymentsTotal!: string;
  @Field(() => DecimalScalar, { description: 'grossTotal - prepaymentsTotal; negative: a credit to the customer' }) amountDue!: string;
  @Field(() => DateTimeScalar, { nullable: true }) issuedAt!: string | null;
  @Field(() => DateScalar, { nullable: true }) dueDate!: string | null;
  @Field(() => String, { nullable: true }) pdfUrl!: string | null;
  @Field(() => ID) templateId!: string;
  @Field(() => ID, { nullable: true }) cancelsInvoiceId!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('InvoiceList')
export class InvoiceListType {
  @Field(() => [InvoiceType]) data!: InvoiceType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class InvoiceListArgs extends ListArgs {
  @Field(() => InvoiceStateEnum, { nullable: true }) state?: string;
  @Field(() => InvoiceKindEnum, { nullable: true }) kind?: string;
  @Field(() => ID, { nullable: true }) contractId?: string;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => ID, { nullable: true }) billRunId?: string;
}
