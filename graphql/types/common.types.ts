import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';

@ArgsType()
export class ListArgs {
  @Field(() => Int, { nullable: true }) limit?: number;
  @Field(() => Int, { nullable: true }) offset?: number;
}

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
