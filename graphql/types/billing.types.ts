import { GraphQLJSONObject } from 'graphql-scalars';
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

@ObjectType('Price')
export class PriceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) priceComponentId!: string;
  @Field(() => String) validFrom!: string;
  @Field(() => String, { description: 'Net per unit, decimal string with 6 decimals' }) amount!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
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
  @Field(() => String, { nullable: true }) validFrom?: string | null;
  @Field(() => String, { nullable: true }) amount?: string | null;
}

@ObjectType('PriceComponent')
export class PriceComponentType {
  @Field(() => ID) id!: string;
  @Field(() => ID) priceComponentGroupId!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'local_energy, grid_energy, energy or base_fee' }) kind!: string;
  @Field(() => String, { description: 'kWh or month' }) unit!: string;
  @Field(() => String, { description: 'energy, grid_fee, metering, concession_fee, levies, electricity_tax or other' }) category!: string;
  @Field(() => ID) taxRateId!: string;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
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
  @Field(() => String, { nullable: true }) kind?: string | null;
  @Field(() => String, { nullable: true }) unit?: string | null;
  @Field(() => String, { nullable: true, description: 'Default energy' }) category?: string | null;
  @Field(() => ID, { nullable: true }) taxRateId?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('PriceComponentGroup')
export class PriceComponentGroupType {
  @Field(() => ID) id!: string;
  @Field(() => ID) electricityProductId!: string;
  @Field(() => String) name!: string;
  @Field(() => Int) position!: number;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
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
  @Field(() => String, { description: 'invoice or credit_note' }) kind!: string;
  @Field(() => String, { description: 'de-DE or en-GB' }) locale!: string;
  @Field(() => String, { nullable: true }) subject!: string | null;
  @Field(() => String, { nullable: true }) introText!: string | null;
  @Field(() => String, { nullable: true }) closingText!: string | null;
  @Field(() => String, { nullable: true }) footerText!: string | null;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType('TemplateList')
export class TemplateListType {
  @Field(() => [TemplateType]) data!: TemplateType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class TemplateListArgs extends ListArgs {
  @Field(() => String, { nullable: true }) kind?: string;
}

@InputType('TemplateInput')
export class TemplateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) kind?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, { nullable: true }) introText?: string | null;
  @Field(() => String, { nullable: true }) closingText?: string | null;
  @Field(() => String, { nullable: true }) footerText?: string | null;
  @Field(() => Boolean, { nullable: true }) isDefault?: boolean | null;
}

@ObjectType('InvoiceDraftLine')
export class InvoiceDraftLineType {
  @Field(() => String) description!: string;
  @Field(() => String) kind!: string;
  @Field(() => String, { description: 'kWh with 3 decimals, or months with 6' }) quantity!: string;
  @Field(() => String) unit!: string;
  @Field(() => String) unitPrice!: string;
  @Field(() => String, { description: 'round(quantity × unitPrice)' }) netAmount!: string;
  @Field(() => ID) taxRateId!: string;
  @Field(() => String) taxRate!: string;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => ID) priceComponentId!: string;
  @Field(() => ID, { nullable: true }) meterId!: string | null;
}

@ObjectType('InvoiceTax', { description: 'The net amount billed at one tax rate and its tax (rounded once)' })
export class InvoiceTaxType {
  @Field(() => ID) taxRateId!: string;
  @Field(() => String) percentage!: string;
  @Field(() => String) netAmount!: string;
  @Field(() => String) taxAmount!: string;
}

@ObjectType('InvoiceDraft', { description: 'What an invoice of the contract for the period would be; nothing is stored' })
export class InvoiceDraftType {
  @Field(() => ID) contractId!: string;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => [InvoiceDraftLineType]) lines!: InvoiceDraftLineType[];
  @Field(() => String) netTotal!: string;
  @Field(() => [InvoiceTaxType]) taxes!: InvoiceTaxType[];
  @Field(() => String) grossTotal!: string;
  @Field(() => String) prepaymentsTotal!: string;
  @Field(() => String) amountDue!: string;
}
