import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PaymentMethodTypeEnum, PaymentStateEnum, PaymentTypeEnum } from '../enums.js';
import { DateScalar, DateTimeScalar, DecimalScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('PaymentMethod')
export class PaymentMethodType {
  @Field(() => ID) id!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => PaymentMethodTypeEnum) type!: string;
  @Field(() => String, { nullable: true }) accountHolder!: string | null;
  @Field(() => String, { nullable: true, description: 'Electronic form, no spaces' }) iban!: string | null;
  @Field(() => String, { nullable: true }) bic!: string | null;
  @Field(() => String, { nullable: true }) mandateReference!: string | null;
  @Field(() => DateScalar, { nullable: true }) mandateSignedAt!: string | null;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
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
  @Field(() => PaymentMethodTypeEnum, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) accountHolder?: string | null;
  @Field(() => String, { nullable: true }) iban?: string | null;
  @Field(() => String, { nullable: true }) bic?: string | null;
  @Field(() => String, { nullable: true }) mandateReference?: string | null;
  @Field(() => DateScalar, { nullable: true }) mandateSignedAt?: string | null;
  @Field(() => Boolean, { nullable: true }) isDefault?: boolean | null;
}

@ObjectType('Payment')
export class PaymentType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => DecimalScalar, { description: '2 decimals' }) amount!: string;
  @Field(() => PaymentTypeEnum) type!: string;
  @Field(() => PaymentStateEnum) state!: string;
  @Field(() => DateScalar) dueDate!: string;
  @Field(() => DateTimeScalar, { nullable: true }) receivedAt!: string | null;
  @Field(() => ID, { nullable: true }) paymentMethodId!: string | null;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => ID, { nullable: true }) invoiceId!: string | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'Set by the system; a locked payment cannot change but for its return (state received to failed)' }) lockedAt!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('PaymentList')
export class PaymentListType {
  @Field(() => [PaymentType]) data!: PaymentType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PaymentListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) contractId?: string;
  @Field(() => PaymentStateEnum, { nullable: true }) state?: string;
  @Field(() => PaymentTypeEnum, { nullable: true }) type?: string;
  @Field(() => DateScalar, { nullable: true, description: 'Due on or after this date' }) dueDateFrom?: string;
  @Field(() => DateScalar, { nullable: true, description: 'Due before this date' }) dueDateTo?: string;
}

@InputType('PaymentInput')
export class PaymentInput {
  @Field(() => ID, { nullable: true }) contractId?: string | null;
  @Field(() => DecimalScalar, { nullable: true }) amount?: string | null;
  @Field(() => PaymentTypeEnum, { nullable: true }) type?: string | null;
  @Field(() => PaymentStateEnum, { nullable: true }) state?: string | null;
  @Field(() => DateScalar, { nullable: true }) dueDate?: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) receivedAt?: string | null;
  @Field(() => ID, { nullable: true }) paymentMethodId?: string | null;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => ID, { nullable: true, description: 'The issued invoice of the contract the payment (or refund) settles' }) invoiceId?: string | null;
}

@ObjectType('PrepaymentAmount')
export class PrepaymentAmountType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => DecimalScalar, { description: '2 decimals' }) amount!: string;
  @Field(() => DateScalar) validFrom!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
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
  @Field(() => DecimalScalar, { nullable: true }) amount?: string | null;
  @Field(() => DateScalar, { nullable: true }) validFrom?: string | null;
}

@ObjectType('PrepaymentRequest')
export class PrepaymentRequestType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => DateScalar) startDate!: string;
  @Field(() => DateScalar, { description: 'Exclusive' }) endDate!: string;
  @Field(() => [ID], { description: 'Every prepayment due in the range, also ones that existed before' }) paymentIds!: string[];
  @Field(() => DateTimeScalar) createdAt!: string;
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
  @Field(() => DateScalar, { nullable: true }) startDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) endDate?: string | null;
}
