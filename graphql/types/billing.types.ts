import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PriceComponentCategoryEnum, PriceComponentKindEnum, PriceUnitEnum, TemplateKindEnum, TemplateLocaleEnum } from '../enums.js';
import { DateScalar, DateTimeScalar, DecimalScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('TaxRate')
export class TaxRateType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => DecimalScalar, { description: 'Percent with 2 decimals, e.g. "19.00"' }) percentage!: string;
  @Field(() => DateScalar) validFrom!: string;
  @Field(() => DateScalar, { nullable: true, description: 'Exclusive; null = open' }) validUntil!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
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
  @Field(() => DecimalScalar, { nullable: true }) percentage?: string | null;
  @Field(() => DateScalar, { nullable: true }) validFrom?: string | null;
  @Field(() => DateScalar, { nullable: true }) validUntil?: string | null;
}

@ObjectType('Price')
export class PriceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) priceComponentId!: string;
  @Field(() => DateScalar) validFrom!: string;
  @Field(() => DecimalScalar, { description: 'Net per unit, 6 decimals' }) amount!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('PriceList')
export class PriceListType {
  @Field(() => [PriceType]) data!: PriceType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PriceListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) priceComponentId?: string;
}

@InputType('PriceInput')
export class PriceInput {
  @Field(() => ID, { nullable: true }) priceComponentId?: string | null;
  @Field(() => DateScalar, { nullable: true }) validFrom?: string | null;
  @Field(() => DecimalScalar, { nullable: true }) amount?: string | null;
}

@ObjectType('PriceComponent')
export class PriceComponentType {
  @Field(() => ID) id!: string;
  @Field(() => ID) priceComponentGroupId!: string;
  @Field(() => String) name!: string;
  @Field(() => PriceComponentKindEnum) kind!: string;
  @Field(() => PriceUnitEnum) unit!: string;
  @Field(() => PriceComponentCategoryEnum) category!: string;
  @Field(() => ID) taxRateId!: string;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('PriceComponentList')
export class PriceComponentListType {
  @Field(() => [PriceComponentType]) data!: PriceComponentType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PriceComponentListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) priceComponentGroupId?: string;
}

@InputType('PriceComponentInput')
export class PriceComponentInput {
  @Field(() => ID, { nullable: true }) priceComponentGroupId?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => PriceComponentKindEnum, { nullable: true }) kind?: string | null;
  @Field(() => PriceUnitEnum, { nullable: true }) unit?: string | null;
  @Field(() => PriceComponentCategoryEnum, { nullable: true, description: 'Default energy' }) category?: string | null;
  @Field(() => ID, { nullable: true }) taxRateId?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('PriceComponentGroup')
export class PriceComponentGroupType {
  @Field(() => ID) id!: string;
  @Field(() => ID) electricityProductId!: string;
  @Field(() => String) name!: string;
  @Field(() => Int) position!: number;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('PriceComponentGroupList')
export class PriceComponentGroupListType {
  @Field(() => [PriceComponentGroupType]) data!: PriceComponentGroupType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class PriceComponentGroupListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) electricityProductId?: string;
}

@InputType('PriceComponentGroupInput')
export class PriceComponentGroupInput {
  @Field(() => ID, { nullable: true }) electricityProductId?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
}

@ObjectType('Template')
export class TemplateType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => TemplateKindEnum) kind!: string;
  @Field(() => TemplateLocaleEnum) locale!: string;
  @Field(() => String, { nullable: true }) subject!: string | null;
  @Field(() => String, { nullable: true }) introText!: string | null;
  @Field(() => String, { nullable: true }) closingText!: string | null;
  @Field(() => String, { nullable: true }) footerText!: string | null;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('TemplateList')
export class TemplateListType {
  @Field(() => [TemplateType]) data!: TemplateType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class TemplateListArgs extends ListArgs {
  @Field(() => TemplateKindEnum, { nullable: true }) kind?: string;
}

@InputType('TemplateInput')
export class TemplateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => TemplateKindEnum, { nullable: true }) kind?: string | null;
  @Field(() => TemplateLocaleEnum, { nullable: true }) locale?: string | null;
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, { nullable: true }) introText?: string | null;
  @Field(() => String, { nullable: true }) closingText?: string | null;
  @Field(() => String, { nullable: true }) footerText?: string | null;
  @Field(() => Boolean, { nullable: true }) isDefault?: boolean | null;
}

@ObjectType('InvoiceDraftLine')
export class InvoiceDraftLineType {
  @Field(() => String) description!: string;
  @Field(() => PriceComponentKindEnum) kind!: string;
  @Field(() => DecimalScalar, { description: 'kWh with 3 decimals, or months with 6' }) quantity!: string;
  // A String because lineItemView has `unit` as one; it becomes PriceUnit when the view says z.enum(PRICE_UNITS).
  @Field(() => String, { description: 'kWh or month' }) unit!: string;
  @Field(() => DecimalScalar, { description: 'Net per unit, 6 decimals' }) unitPrice!: string;
  @Field(() => DecimalScalar, { description: 'round(quantity × unitPrice)' }) netAmount!: string;
  @Field(() => ID) taxRateId!: string;
  @Field(() => DecimalScalar, { description: 'Percent' }) taxRate!: string;
  @Field(() => DateScalar) periodStart!: string;
  @Field(() => DateScalar) periodEnd!: string;
  @Field(() => ID) priceComponentId!: string;
  @Field(() => ID, { nullable: true }) meterId!: string | null;
}

@ObjectType('InvoiceTax', { description: 'The net amount billed at one tax rate and its tax (rounded once)' })
export class InvoiceTaxType {
  @Field(() => ID) taxRateId!: string;
  @Field(() => DecimalScalar) percentage!: string;
  @Field(() => DecimalScalar) netAmount!: string;
  @Field(() => DecimalScalar) taxAmount!: string;
}

@ObjectType('InvoiceDraft', { description: 'What an invoice of the contract for the period would be; nothing is stored' })
export class InvoiceDraftType {
  @Field(() => ID) contractId!: string;
  @Field(() => DateScalar) periodStart!: string;
  @Field(() => DateScalar) periodEnd!: string;
  @Field(() => [InvoiceDraftLineType]) lines!: InvoiceDraftLineType[];
  @Field(() => DecimalScalar) netTotal!: string;
  @Field(() => [InvoiceTaxType]) taxes!: InvoiceTaxType[];
  @Field(() => DecimalScalar) grossTotal!: string;
  @Field(() => DecimalScalar) prepaymentsTotal!: string;
  @Field(() => DecimalScalar, { description: 'Negative: a credit to the customer' }) amountDue!: string;
}
