import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AddressInput, AddressType, ListArgs } from './common.types.js';

@ObjectType('Site')
export class SiteType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'balanced_accurate, balanced_inaccurate, unbalanced_accurate or unbalanced_inaccurate' })
  type!: string;
  @Field(() => String, { description: 'ISO 8601 duration: PT15M or P1M' }) balanceResolution!: string;
  @Field(() => AddressType) address!: AddressType;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => String, { description: 'ISO 8601 UTC with milliseconds' }) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('SiteList')
export class SiteListType {
  @Field(() => [SiteType]) data!: SiteType[];
  @Field(() => Int) total!: number;
}

@InputType('SiteInput', { description: 'Create: name, type and address are required. Update: a merge patch.' })
export class SiteInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) balanceResolution?: string | null;
  @Field(() => AddressInput, { nullable: true }) address?: AddressInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('AggregatedBalance')
export class AggregatedBalanceType {
  @Field(() => ID, { nullable: true }) debitorMeterId!: string | null;
  @Field(() => ID, { nullable: true }) creditorMeterId!: string | null;
  @Field(() => String, { description: 'local, grid or feed_in' }) kind!: string;
  @Field(() => String) startDateTime!: string;
  @Field(() => String) endDateTime!: string;
  @Field(() => Float, { description: 'kWh' }) value!: number;
}

@ObjectType('AggregatedBalanceList')
export class AggregatedBalanceListType {
  @Field(() => [AggregatedBalanceType]) data!: AggregatedBalanceType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class BalanceArgs extends ListArgs {
  @Field(() => String) startDateTime!: string;
  @Field(() => String) endDateTime!: string;
  @Field(() => String, { description: 'PT15M, PT1H, P1D, P1M or P1Y' }) interval!: string;
}
