import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { FuelSourceEnum, InvoiceFormatEnum, PrepaymentCycleEnum } from '../enums.js';
import { DateTimeScalar } from '../scalars.js';
import { AddressInput, AddressType } from './common.types.js';

@ObjectType('Customer')
export class CustomerType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) companyName!: string | null;
  @Field(() => AddressType, { nullable: true }) address!: AddressType | null;
  @Field(() => AddressType, { nullable: true }) deliveryAddress!: AddressType | null;
  @Field(() => String, { nullable: true }) invoiceEmail!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) number!: string | null;
  @Field(() => String, { nullable: true }) salutation!: string | null;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) phone1!: string | null;
  @Field(() => String, { nullable: true }) phone2!: string | null;
  @Field(() => String, { nullable: true, description: 'USt-IdNr. of a business customer (BT-48), normalised' }) vatId!: string | null;
  @Field(() => String, { nullable: true, description: 'Buyer reference (BT-10), e.g. a Leitweg-ID' }) buyerReference!: string | null;
  @Field(() => InvoiceFormatEnum) invoiceFormat!: string;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('CustomerList')
export class CustomerListType {
  @Field(() => [CustomerType]) data!: CustomerType[];
  @Field(() => Int) total!: number;
}

@InputType('CustomerInput')
export class CustomerInput {
  @Field(() => String, { nullable: true }) companyName?: string | null;
  @Field(() => AddressInput, { nullable: true }) address?: AddressInput | null;
  @Field(() => AddressInput, { nullable: true }) deliveryAddress?: AddressInput | null;
  @Field(() => String, { nullable: true }) invoiceEmail?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) number?: string | null;
  @Field(() => String, { nullable: true }) salutation?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) phone1?: string | null;
  @Field(() => String, { nullable: true }) phone2?: string | null;
  @Field(() => String, { nullable: true, description: 'USt-IdNr. (any EU VAT id; a German one with its check digit)' }) vatId?: string | null;
  @Field(() => String, { nullable: true, description: 'Buyer reference (BT-10), e.g. a Leitweg-ID' }) buyerReference?: string | null;
  @Field(() => InvoiceFormatEnum, { nullable: true, description: 'Default pdf; null resets to it' }) invoiceFormat?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('PrepaymentConfiguration')
export class PrepaymentConfigurationType {
  @Field(() => PrepaymentCycleEnum) cycle!: string;
  @Field(() => Int) dayOfMonth!: number;
}

@InputType('PrepaymentConfigurationInput')
export class PrepaymentConfigurationInput {
  @Field(() => PrepaymentCycleEnum, { nullable: true }) cycle?: string | null;
  @Field(() => Int, { nullable: true }) dayOfMonth?: number | null;
}

@ObjectType('FuelMixSource')
export class FuelMixSourceType {
  @Field(() => FuelSourceEnum) source!: string;
  @Field(() => Float, { description: 'Percent, at most 1 decimal' }) percentage!: number;
}

@ObjectType('FuelMix', { description: 'Stromkennzeichnung (§42 EnWG)' })
export class FuelMixType {
  @Field(() => Int) year!: number;
  @Field(() => [FuelMixSourceType], { description: 'Each source once; the percentages sum to exactly 100' }) sources!: FuelMixSourceType[];
  @Field(() => Float) co2GramsPerKwh!: number;
  @Field(() => Float) radioactiveWasteMgPerKwh!: number;
}

@InputType('FuelMixSourceInput')
export class FuelMixSourceInput {
  @Field(() => FuelSourceEnum, { nullable: true }) source?: string | null;
  @Field(() => Float, { nullable: true }) percentage?: number | null;
}

@InputType('FuelMixInput')
export class FuelMixInput {
  @Field(() => Int, { nullable: true }) year?: number | null;
  @Field(() => [FuelMixSourceInput], { nullable: true }) sources?: FuelMixSourceInput[] | null;
  @Field(() => Float, { nullable: true }) co2GramsPerKwh?: number | null;
  @Field(() => Float, { nullable: true }) radioactiveWasteMgPerKwh?: number | null;
}

@ObjectType('ElectricityProduct')
export class ProductType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => PrepaymentConfigurationType, { nullable: true }) prepaymentConfiguration!: PrepaymentConfigurationType | null;
  @Field(() => FuelMixType, { nullable: true }) fuelMix!: FuelMixType | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('ElectricityProductList')
export class ProductListType {
  @Field(() => [ProductType]) data!: ProductType[];
  @Field(() => Int) total!: number;
}

@InputType('ElectricityProductInput')
export class ProductInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => PrepaymentConfigurationInput, { nullable: true }) prepaymentConfiguration?: PrepaymentConfigurationInput | null;
  @Field(() => FuelMixInput, { nullable: true }) fuelMix?: FuelMixInput | null;
}
