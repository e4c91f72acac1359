import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ListArgs } from './common.types.js';

@ObjectType('CustomAttribute')
export class CustomAttributeType {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'site, customer, meter, contract or price_component' }) entity!: string;
  @Field(() => String, { description: 'text, number, date, date_time or boolean' }) type!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('CustomAttributeList')
export class CustomAttributeListType {
  @Field(() => [CustomAttributeType]) data!: CustomAttributeType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class CustomAttributeListArgs extends ListArgs {
  @Field(() => String, { nullable: true }) entity?: string;
}

@InputType('CustomAttributeInput')
export class CustomAttributeInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) entity?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
}

@ObjectType('User')
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) phone1!: string | null;
  @Field(() => String, { nullable: true }) phone2!: string | null;
  @Field(() => String) email!: string;
  @Field(() => String) role!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('UserList')
export class UserListType {
  @Field(() => [UserType]) data!: UserType[];
  @Field(() => Int) total!: number;
}

@ObjectType('Account')
export class AccountType {
  @Field(() => ID) id!: string;
  @Field(() => String) companyName!: string;
  @Field(() => String) timezone!: string;
  @Field(() => String) currency!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}
