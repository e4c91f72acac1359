import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { CustomAttributeEntityEnum, CustomAttributeTypeEnum, RoleEnum } from '../enums.js';
import { DateTimeScalar } from '../scalars.js';
import { AddressInput, AddressType, ListArgs } from './common.types.js';

@ObjectType('CustomAttribute')
export class CustomAttributeType {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) name!: string;
  @Field(() => CustomAttributeEntityEnum) entity!: string;
  @Field(() => CustomAttributeTypeEnum) type!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('CustomAttributeList')
export class CustomAttributeListType {
  @Field(() => [CustomAttributeType]) data!: CustomAttributeType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class CustomAttributeListArgs extends ListArgs {
  @Field(() => CustomAttributeEntityEnum, { nullable: true }) entity?: string;
}

@InputType('CustomAttributeInput')
export class CustomAttributeInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => CustomAttributeEntityEnum, { nullable: true }) entity?: string | null;
  @Field(() => CustomAttributeTypeEnum, { nullable: true }) type?: string | null;
}

@ObjectType('User')
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) phone1!: string | null;
  @Field(() => String, { nullable: true }) phone2!: string | null;
  @Field(() => String) email!: string;
  @Field(() => RoleEnum) role!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('UserList')
export class UserListType {
  @Field(() => [UserType]) data!: UserType[];
  @Field(() => Int) total!: number;
}

@ObjectType('AccountContact')
export class AccountContactType {
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => String, { nullable: true }) website!: string | null;
}

@ObjectType('AccountBankAccount')
export class AccountBankAccountType {
  @Field(() => String, { nullable: true }) accountHolder!: string | null;
  @Field(() => String) iban!: string;
  @Field(() => String, { nullable: true }) bic!: string | null;
}

@ObjectType('Account')
export class AccountType {
  @Field(() => ID) id!: string;
  @Field(() => String) companyName!: string;
  @Field(() => String) timezone!: string;
  @Field(() => String) currency!: string;
  @Field(() => AddressType, { nullable: true }) address!: AddressType | null;
  @Field(() => String, { nullable: true, description: 'USt-IdNr.: DE and nine digits' }) vatId!: string | null;
  @Field(() => String, { nullable: true, description: 'Steuernummer' }) taxNumber!: string | null;
  @Field(() => String, { nullable: true }) registerCourt!: string | null;
  @Field(() => String, { nullable: true }) registerNumber!: string | null;
  @Field(() => [String]) managingDirectors!: string[];
  @Field(() => AccountContactType) contact!: AccountContactType;
  @Field(() => AccountBankAccountType, { nullable: true }) bankAccount!: AccountBankAccountType | null;
  @Field(() => String, { nullable: true, description: 'SEPA creditor identifier (Gläubiger-ID)' }) sepaCreditorId!: string | null;
  @Field(() => String, { nullable: true, description: 'Null: invoices print the default notice (Schlichtungsstelle Energie, Verbraucherservice Energie of the Bundesnetzagentur)' })
  disputeResolutionText!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

// Inputs carry shape only (every field nullable): core validates them with the REST API's codes.
@InputType('AccountContactInput')
export class AccountContactInput {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
}

@InputType('AccountBankAccountInput')
export class AccountBankAccountInput {
  @Field(() => String, { nullable: true }) accountHolder?: string | null;
  @Field(() => String, { nullable: true }) iban?: string | null;
  @Field(() => String, { nullable: true }) bic?: string | null;
}

/** A merge patch of the account, like PATCH /v1/accounts/{id}: absent fields stay, null clears. */
@InputType('AccountInput')
export class AccountInput {
  @Field(() => String, { nullable: true }) companyName?: string | null;
  @Field(() => AddressInput, { nullable: true }) address?: AddressInput | null;
  @Field(() => String, { nullable: true }) vatId?: string | null;
  @Field(() => String, { nullable: true }) taxNumber?: string | null;
  @Field(() => String, { nullable: true }) registerCourt?: string | null;
  @Field(() => String, { nullable: true }) registerNumber?: string | null;
  @Field(() => [String], { nullable: true }) managingDirectors?: string[] | null;
  @Field(() => AccountContactInput, { nullable: true }) contact?: AccountContactInput | null;
  @Field(() => AccountBankAccountInput, { nullable: true }) bankAccount?: AccountBankAccountInput | null;
  @Field(() => String, { nullable: true }) sepaCreditorId?: string | null;
  @Field(() => String, { nullable: true }) disputeResolutionText?: string | null;
}
