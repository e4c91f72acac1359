import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('Address')
export class AddressType {
  @Field(() => String, { nullable: true }) line1!: string | null;
  @Field(() => String, { nullable: true }) line2!: string | null;
  @Field(() => String, { nullable: true }) line3!: string | null;
  @Field(() => String, { nullable: true }) line4!: string | null;
  @Field(() => String) locality!: string;
  @Field(() => String) postCode!: string;
  @Field(() => String) country!: string;
}

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

// Inputs carry shape only: every field is nullable so that core's validation reports what is
// missing or wrong with the same codes as the REST API.
@InputType('AddressInput')
export class AddressInput {
  @Field(() => String, { nullable: true }) line1?: string | null;
  @Field(() => String, { nullable: true }) line2?: string | null;
  @Field(() => String, { nullable: true }) line3?: string | null;
  @Field(() => String, { nullable: true }) line4?: string | null;
  @Field(() => String, { nullable: true }) locality?: string | null;
  @Field(() => String, { nullable: true }) postCode?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
}

@InputType('SiteInput', { description: 'Create: name, type and address are required. Update: a merge patch.' })
export class SiteInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) balanceResolution?: string | null;
  @Field(() => AddressInput, { nullable: true }) address?: AddressInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}
