import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ListArgs } from './common.types.js';

@ObjectType('PaymentMethod')
export class PaymentMethodType {
  @Field(() => ID) id!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => String, { description: 'sepa_direct_debit or bank_transfer' }) type!: string;
  @Field(() => String, { nullable: true }) accountHolder!: string | null;
  @Field(() => String, { nullable: true, description: 'Electronic form, no spaces' }) iban!: string | null;
  @Field(() => String, { nullable: true }) bic!: string | null;
  @Field(() => String, { nullable: true }) mandateReference!: string | null;
  @Field(() => String, { nullable: true }) mandateSignedAt!: string | null;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('PaymentMethodList')
export class PaymentMethodListType {
  @Field(() => [PaymentMethodType]) data!: PaymentMethodType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PaymentMethodListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) customerId?: string;
}

@InputType('PaymentMethodInput')
export class PaymentMethodInput {
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) accountHolder?: string | null;
  @Field(() => String, { nullable: true }) iban?: string | null;
  @Field(() => String, { nullable: true }) bic?: string | null;
  @Field(() => String, { nullable: true }) mandateReference?: string | null;
  @Field(() => String, { nullable: true }) mandateSignedAt?: string | null;
  @Field(() => Boolean, { nullable: true }) isDefault?: boolean | null;
}

@ObjectType('Payment')
export class PaymentType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => String, { description: 'Decimal string, e.g. "12.34"' }) amount!: string;
  @Field(() => String, { description: 'prepayment, payment or refund' }) type!: string;
  @Field(() => String, { description: 'pending, received or failed' }) state!: string;
  @Field(() => String) dueDate!: string;
  @Field(() => String, { nullable: true }) receivedAt!: string | null;
  @Field(() => ID, { nullable: true }) paymentMethodId!: string | null;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => ID, { nullable: true }) invoiceId!: string | null;
  @Field(() => String, { nullable: true, description: 'Set by the system; a locked payment cannot change' }) lockedAt!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('PaymentList')
export class PaymentListType {
  @Field(() => [PaymentType]) data!: PaymentType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PaymentListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) contractId?: string;
  @Field(() => String, { nullable: true }) state?: string;
  @Field(() => String, { nullable: true }) type?: string;
  @Field(() => String, { nullable: true, description: 'Due on or after this date' }) dueDateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Due before this date' }) dueDateTo?: string;
}

@InputType('PaymentInput')
export class PaymentInput {
  @Field(() => ID, { nullable: true }) contractId?: string | null;
  @Field(() => String, { nullable: true }) amount?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => String, { nullable: true }) dueDate?: string | null;
  @Field(() => String, { nullable: true }) receivedAt?: string | null;
  @Field(() => ID, { nullable: true }) paymentMethodId?: string | null;
  @Field(() => String, { nullable: true }) reference?: string | null;
}

@ObjectType('PrepaymentAmount')
export class PrepaymentAmountType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String) validFrom!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('PrepaymentAmountList')
export class PrepaymentAmountListType {
  @Field(() => [PrepaymentAmountType]) data!: PrepaymentAmountType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PrepaymentAmountListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) contractId?: string;
}

@InputType('PrepaymentAmountInput')
export class PrepaymentAmountInput {
  @Field(() => ID, { nullable: true }) contractId?: string | null;
  @Field(() => String, { nullable: true }) amount?: string | null;
  @Field(() => String, { nullable: true }) validFrom?: string | null;
}

@ObjectType('PrepaymentRequest')
export class PrepaymentRequestType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => String) startDate!: string;
  @Field(() => String, { description: 'Exclusive' }) endDate!: string;
  @Field(() => [ID], { description: 'Every prepayment due in the range, also ones that existed before' }) paymentIds!: string[];
  @Field(() => String) createdAt!: string;
}

@ObjectType('PrepaymentRequestList')
export class PrepaymentRequestListType {
  @Field(() => [PrepaymentRequestType]) data!: PrepaymentRequestType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PrepaymentRequestListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) contractId?: string;
}

@InputType('PrepaymentRequestInput')
export class PrepaymentRequestInput {
  @Field(() => ID, { nullable: true }) contractId?: string | null;
  @Field(() => String, { nullable: true }) startDate?: string | null;
  @Field(() => String, { nullable: true }) endDate?: string | null;
}
