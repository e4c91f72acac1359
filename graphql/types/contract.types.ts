import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { BalancingKindEnum } from '../enums.js';
import { DateScalar, DateTimeScalar, DecimalScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('Contract')
export class ContractType {
  @Field(() => ID) id!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => ID) electricityProductId!: string;
  @Field(() => ID) siteId!: string;
  @Field(() => Boolean) dunningBlock!: boolean;
  @Field(() => DateScalar, { description: '00:00 in the account timezone' }) startDate!: string;
  @Field(() => DateScalar, { nullable: true, description: 'Exclusive end date' }) endDate!: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'Exclusive end of the minimum term' }) minimumTermEndDate!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 duration in years, months, weeks or days, e.g. P1M' }) noticePeriod!: string | null;
  @Field(() => String, { nullable: true, description: 'Business customers: each renewal after the minimum term, e.g. P1Y' }) renewalPeriod!: string | null;
  @Field(() => String) number!: string;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('ContractList')
export class ContractListType {
  @Field(() => [ContractType]) data!: ContractType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class ContractListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) siteId?: string;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => ID, { nullable: true }) electricityProductId?: string;
}

@InputType('ContractInput')
export class ContractInput {
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => ID, { nullable: true }) electricityProductId?: string | null;
  @Field(() => ID, { nullable: true }) siteId?: string | null;
  @Field(() => Boolean, { nullable: true }) dunningBlock?: boolean | null;
  @Field(() => DateScalar, { nullable: true }) startDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) endDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) minimumTermEndDate?: string | null;
  @Field(() => String, { nullable: true }) noticePeriod?: string | null;
  @Field(() => String, { nullable: true }) renewalPeriod?: string | null;
  @Field(() => String, { nullable: true }) number?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('ContractMeter')
export class ContractMeterType {
  @Field(() => ID) id!: string;
  @Field(() => ID) contractId!: string;
  @Field(() => ID) siteId!: string;
  @Field(() => ID) meterId!: string;
  @Field(() => DateScalar) startDate!: string;
  @Field(() => DateScalar, { nullable: true }) endDate!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('ContractMeterList')
export class ContractMeterListType {
  @Field(() => [ContractMeterType]) data!: ContractMeterType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class ContractMeterListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) contractId?: string;
  @Field(() => ID, { nullable: true }) meterId?: string;
  @Field(() => ID, { nullable: true }) siteId?: string;
}

@InputType('ContractMeterInput')
export class ContractMeterInput {
  @Field(() => ID, { nullable: true }) contractId?: string | null;
  @Field(() => ID, { nullable: true }) siteId?: string | null;
  @Field(() => ID, { nullable: true }) meterId?: string | null;
  @Field(() => DateScalar, { nullable: true }) startDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) endDate?: string | null;
}

@ObjectType('MeterBalancingSetting')
export class BalancingSettingType {
  @Field(() => ID) id!: string;
  @Field(() => ID) siteId!: string;
  @Field(() => ID) meterId!: string;
  @Field(() => BalancingKindEnum) balancing!: string;
  @Field(() => DateScalar) startDate!: string;
  @Field(() => DateScalar, { nullable: true }) endDate!: string | null;
  @Field(() => Int, { nullable: true, description: 'Lower first; null shares equally in the last tier' }) priority!: number | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Share of the local supply under the static allocation key, 6 decimals, e.g. "0.250000"' })
  share!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('MeterBalancingSettingList')
export class BalancingSettingListType {
  @Field(() => [BalancingSettingType]) data!: BalancingSettingType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class BalancingSettingListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) siteId?: string;
  @Field(() => ID, { nullable: true }) meterId?: string;
}

@InputType('MeterBalancingSettingInput')
export class BalancingSettingInput {
  @Field(() => ID, { nullable: true }) siteId?: string | null;
  @Field(() => ID, { nullable: true }) meterId?: string | null;
  @Field(() => BalancingKindEnum, { nullable: true }) balancing?: string | null;
  @Field(() => DateScalar, { nullable: true }) startDate?: string | null;
  @Field(() => DateScalar, { nullable: true }) endDate?: string | null;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Above 0 and at most 1, up to 6 decimals' }) share?: string | null;
}
