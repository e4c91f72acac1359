import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PaymentRunSkipReasonEnum, PaymentRunStateEnum, PaymentRunTypeEnum, PaymentStateEnum, PaymentTypeEnum, SequenceTypeEnum } from '../enums.js';
import { DateScalar, DateTimeScalar, DecimalScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('PaymentRunCounts')
export class PaymentRunCountsType {
  @Field(() => Int) payments!: number;
  @Field(() => Int, { description: 'Awaiting an outcome' }) submitted!: number;
  @Field(() => Int) received!: number;
  @Field(() => Int) failed!: number;
}

@ObjectType('PaymentRunSkippedCustomer')
export class PaymentRunSkippedCustomerType {
  @Field(() => ID) customerId!: string;
  @Field(() => PaymentRunSkipReasonEnum) reason!: string;
  @Field(() => String) message!: string;
  @Field(() => [ID], { description: 'Pending payments left out; they stay pending' }) paymentIds!: string[];
  @Field(() => [ID], { description: 'Invoices whose open amount was not collected' }) invoiceIds!: string[];
}

@ObjectType('PaymentRunItem')
export class PaymentRunItemType {
  @Field(() => ID) paymentId!: string;
  @Field(() => PaymentTypeEnum) paymentType!: string;
  @Field(() => PaymentStateEnum, { description: 'The payment state now' }) state!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) invoiceId!: string | null;
  @Field(() => DecimalScalar) amount!: string;
  @Field(() => ID) paymentMethodId!: string;
  @Field(() => SequenceTypeEnum, { nullable: true, description: 'Direct debits only' }) sequenceType!: string | null;
  @Field(() => String, { nullable: true }) mandateReference!: string | null;
  @Field(() => String) name!: string;
  @Field(() => String) iban!: string;
  @Field(() => String) endToEndId!: string;
  @Field(() => String) remittance!: string;
}

@ObjectType('PaymentRun')
export class PaymentRunType {
  @Field(() => ID) id!: string;
  @Field(() => PaymentRunTypeEnum) type!: string;
  @Field(() => PaymentRunStateEnum) state!: string;
  @Field(() => DateScalar) collectionDate!: string;
  @Field(() => DateScalar) dueUntil!: string;
  @Field(() => [ID], { nullable: true, description: 'null: every site of the account' }) siteIds!: string[] | null;
  @Field(() => String, { description: 'MsgId of the file' }) messageId!: string;
  @Field(() => PaymentRunCountsType) counts!: PaymentRunCountsType;
  @Field(() => DecimalScalar, { description: 'Sum of the payments in the file (CtrlSum)' }) controlSum!: string;
  @Field(() => [PaymentRunSkippedCustomerType]) skipped!: PaymentRunSkippedCustomerType[];
  @Field(() => String) fileUrl!: string;
  @Field(() => DateTimeScalar, { nullable: true }) closedAt!: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) cancelledAt!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('PaymentRunList')
export class PaymentRunListType {
  @Field(() => [PaymentRunType]) data!: PaymentRunType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PaymentRunListArgs extends ListArgs {
  @Field(() => PaymentRunStateEnum, { nullable: true }) state?: string;
  @Field(() => PaymentRunTypeEnum, { nullable: true }) type?: string;
}

@InputType('PaymentRunInput')
export class PaymentRunInput {
  @Field(() => PaymentRunTypeEnum, { nullable: true }) type?: string | null;
  @Field(() => DateScalar, { nullable: true }) collectionDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) dueUntil?: string | null;
  @Field(() => [ID], { nullable: true }) siteIds?: string[] | null;
}
