import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ListArgs } from './common.types.js';

@ObjectType('TaxRate')
export class TaxRateType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'Decimal string, e.g. "19.00"' }) percentage!: string;
  @Field(() => String) validFrom!: string;
  @Field(() => String, { nullable: true, description: 'Exclusive; null = open' }) validUntil!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('TaxRateList')
export class TaxRateListType {
  @Field(() => [TaxRateType]) data!: TaxRateType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class TaxRateListArgs extends ListArgs {
  @Field(() => String, { nullable: true }) name?: string;
}

@InputType('TaxRateInput')
export class TaxRateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) percentage?: string | null;
  @Field(() => String, { nullable: true }) validFrom?: string | null;
  @Field(() => String, { nullable: true }) validUntil?: string | null;
}
