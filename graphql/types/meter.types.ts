import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { IntervalEnum, MeterDirectionEnum, MeterMeasuringEnum } from '../enums.js';
import { DateTimeScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('Meter')
export class MeterType {
  @Field(() => ID) id!: string;
  @Field(() => ID) siteId!: string;
  @Field(() => ID, { nullable: true }) mpoId!: string | null;
  @Field(() => MeterDirectionEnum) direction!: string;
  @Field(() => String) identifier!: string;
  @Field(() => String, { nullable: true }) serial!: string | null;
  @Field(() => String, { nullable: true, description: 'MaLo-ID: 11 digits, the 11th its check digit; not unique' }) marketLocationId!: string | null;
  @Field(() => String, { nullable: true, description: 'Zählpunktbezeichnung: DE and 31 upper-case letters or digits; not unique' }) meteringPointId!: string | null;
  @Field(() => DateTimeScalar) startDate!: string;
  @Field(() => MeterMeasuringEnum) measuring!: string;
  @Field(() => Boolean) grid!: boolean;
  @Field(() => [GraphQLJSONObject], { nullable: true, description: 'Components of a virtual meter' }) formula!: Record<string, unknown>[] | null;
  @Field(() => GraphQLJSONObject) customAttributes!: Record<string, unknown>;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('MeterList')
export class MeterListType {
  @Field(() => [MeterType]) data!: MeterType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class MeterListArgs extends ListArgs {
  @Field(() => ID, { nullable: true }) siteId?: string;
}

@InputType('MeterInput')
export class MeterInput {
  @Field(() => ID, { nullable: true }) siteId?: string | null;
  @Field(() => ID, { nullable: true }) mpoId?: string | null;
  @Field(() => MeterDirectionEnum, { nullable: true }) direction?: string | null;
  @Field(() => String, { nullable: true }) identifier?: string | null;
  @Field(() => String, { nullable: true }) serial?: string | null;
  @Field(() => String, { nullable: true }) marketLocationId?: string | null;
  @Field(() => String, { nullable: true }) meteringPointId?: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) startDate?: string | null;
  @Field(() => MeterMeasuringEnum, { nullable: true }) measuring?: string | null;
  @Field(() => Boolean, { nullable: true }) grid?: boolean | null;
  @Field(() => [GraphQLJSONObject], { nullable: true }) formula?: Record<string, unknown>[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) customAttributes?: Record<string, unknown> | null;
}

@ObjectType('Mpo')
export class MpoType {
  @Field(() => ID) id!: string;
  @Field(() => String) channel!: string;
  @Field(() => String) provider!: string;
  @Field(() => String) name!: string;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('MpoList')
export class MpoListType {
  @Field(() => [MpoType]) data!: MpoType[];
  @Field(() => Int) total!: number;
}

@InputType('MpoInput')
export class MpoInput {
  @Field(() => String, { nullable: true }) channel?: string | null;
  @Field(() => String, { nullable: true }) provider?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
}

@ObjectType('Measurement')
export class MeasurementType {
  @Field(() => ID) meterId!: string;
  @Field(() => DateTimeScalar) timestamp!: string;
  @Field(() => Float, { description: 'kWh' }) value!: number;
  @Field(() => String) obis!: string;
}

@ObjectType('MeasurementList')
export class MeasurementListType {
  @Field(() => [MeasurementType]) data!: MeasurementType[];
  @Field(() => Int) total!: number;
}

@ObjectType('AggregatedMeasurement')
export class AggregatedMeasurementType {
  @Field(() => ID) meterId!: string;
  @Field(() => DateTimeScalar) startDateTime!: string;
  @Field(() => DateTimeScalar) endDateTime!: string;
  @Field(() => Float, { description: 'kWh' }) value!: number;
  @Field(() => Boolean) complete!: boolean;
}

@ObjectType('AggregatedMeasurementList')
export class AggregatedMeasurementListType {
  @Field(() => [AggregatedMeasurementType]) data!: AggregatedMeasurementType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class MeasurementRangeArgs extends ListArgs {
  @Field(() => DateTimeScalar) startDateTime!: string;
  @Field(() => DateTimeScalar) endDateTime!: string;
}

@ArgsType()
export class AggregationArgs {
  @Field(() => DateTimeScalar) startDateTime!: string;
  @Field(() => DateTimeScalar) endDateTime!: string;
  @Field(() => IntervalEnum) interval!: string;
}
