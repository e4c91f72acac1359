import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AllocationKeyEnum, BalanceResolutionEnum, FlowKindEnum, IntervalEnum, SiteTypeEnum } from '../enums.js';
import { DateScalar, DateTimeScalar } from '../scalars.js';
import { AddressInput, AddressType, ListArgs } from './common.types.js';

@ObjectType('Site')
export class SiteType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => SiteTypeEnum) type!: string;
  @Field(() => BalanceResolutionEnum) balanceResolution!: string;
  @Field(() => AllocationKeyEnum) allocationKey!: string;
  @Field(() => DateScalar, { nullable: true, description: 'First day (account timezone) the key applies; null while the key was never changed from priority' })
  allocationKeyValidFrom!: string | null;
  @Field(() => AddressType) address!: AddressType;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('SiteList')
export class SiteListType {
  @Field(() => [SiteType]) data!: SiteType[];
  @Field(() => Int) total!: number;
}

@InputType('SiteInput', { description: 'Create: name, type and address are required. Update: a merge patch.' })
export class SiteInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => SiteTypeEnum, { nullable: true }) type?: string | null;
  @Field(() => BalanceResolutionEnum, { nullable: true }) balanceResolution?: string | null;
  @Field(() => AllocationKeyEnum, { nullable: true, description: 'Without allocationKeyValidFrom from the first day of the current month' })
  allocationKey?: string | null;
  @Field(() => DateScalar, { nullable: true }) allocationKeyValidFrom?: string | null;
  @Field(() => AddressInput, { nullable: true }) address?: AddressInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('AggregatedBalance')
export class AggregatedBalanceType {
  @Field(() => ID, { nullable: true }) debitorMeterId!: string | null;
  @Field(() => ID, { nullable: true }) creditorMeterId!: string | null;
  @Field(() => FlowKindEnum) kind!: string;
  @Field(() => DateTimeScalar) startDateTime!: string;
  @Field(() => DateTimeScalar) endDateTime!: string;
  @Field(() => Float, { description: 'kWh' }) value!: number;
}

@ObjectType('AggregatedBalanceList')
export class AggregatedBalanceListType {
  @Field(() => [AggregatedBalanceType]) data!: AggregatedBalanceType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class BalanceArgs extends ListArgs {
  @Field(() => DateTimeScalar) startDateTime!: string;
  @Field(() => DateTimeScalar) endDateTime!: string;
  @Field(() => IntervalEnum) interval!: string;
}
