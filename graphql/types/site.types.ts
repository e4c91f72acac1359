import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AddressInput, AddressType } from './common.types.js';

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
