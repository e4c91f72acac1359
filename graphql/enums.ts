import { registerEnumType } from 'type-graphql';
import { E_INVOICE_PROFILES } from '../core/billing/invoices/e-invoice/cii.js';
import { ROLES } from '../core/domain/accounts/account.js';
import { ALLOCATION_KEYS } from '../core/domain/balancing/allocation.js';
import { BALANCING_KINDS } from '../core/domain/balancing/balancing-setting.js';
import { FLOW_KINDS } from '../core/domain/balancing/site-balance.js';
import { BILL_RUN_PHASES, BILL_RUN_STATES } from '../core/domain/billing/bill-run.js';
import { INVOICE_KINDS, INVOICE_STATES } from '../core/domain/billing/invoice.js';
import { PRICE_COMPONENT_CATEGORIES, PRICE_COMPONENT_KINDS, PRICE_UNITS } from '../core/domain/billing/price.js';
import { TEMPLATE_KINDS, TEMPLATE_LOCALES } from '../core/domain/billing/template.js';
import { CUSTOM_ATTRIBUTE_ENTITIES, CUSTOM_ATTRIBUTE_TYPES } from '../core/domain/custom-attributes/custom-attribute.js';
import { INVOICE_FORMATS } from '../core/domain/customers/customer.js';
import { DIRECTIONS, MEASURING } from '../core/domain/meters/meter.js';
import { SEQUENCE_TYPES } from '../core/domain/payments/mandate-sequence.js';
import { PAYMENT_METHOD_TYPES } from '../core/domain/payments/payment-method.js';
import { PAYMENT_RUN_STATES, PAYMENT_RUN_TYPES, SKIP_REASONS } from '../core/domain/payments/payment-run.js';
import { PAYMENT_STATES, PAYMENT_TYPES } from '../core/domain/payments/payment.js';
import { FUEL_SOURCES, PREPAYMENT_CYCLES } from '../core/domain/products/electricity-product.js';
import { BALANCE_RESOLUTIONS, SITE_TYPES } from '../core/domain/sites/site.js';
import { INTERVALS } from '../core/domain/time/buckets.js';
import { DELIVERY_STATES } from '../core/domain/webhooks/webhook.js';

interface EnumOptions<V extends string> {
  description?: string;
  /** For values that are no GraphQL name (e.g. `de-DE`): the name written instead, which `description` states. */
  nameOf?: (value: V) => string;
}

/**
 * A GraphQL enum over one of core's closed sets: its names are core's values, so the wire shows
 * what REST shows, and resolvers and core exchange core's values. graphql-js refuses a value that
 * is no name when the schema is built, so a set needing `nameOf` cannot go unnoticed.
 */
export function enumFrom<V extends string>(name: string, values: readonly V[], options: EnumOptions<V> = {}): Record<string, V> {
  const enumObject: Record<string, V> = Object.fromEntries(values.map((value) => [options.nameOf?.(value) ?? value, value]));
  registerEnumType(enumObject, { name, ...(options.description ? { description: options.description } : {}) });
  return enumObject;
}

export const RoleEnum = enumFrom('Role', ROLES);
export const CustomAttributeEntityEnum = enumFrom('CustomAttributeEntity', CUSTOM_ATTRIBUTE_ENTITIES);
export const CustomAttributeTypeEnum = enumFrom('CustomAttributeType', CUSTOM_ATTRIBUTE_TYPES);

export const SiteTypeEnum = enumFrom('SiteType', SITE_TYPES);
export const BalanceResolutionEnum = enumFrom('BalanceResolution', BALANCE_RESOLUTIONS, { description: 'ISO 8601 durations: PT15M (quarter hours) or P1M (months)' });
export const AllocationKeyEnum = enumFrom('AllocationKey', ALLOCATION_KEYS, {
  description: 'How local supply is shared among consumers: priority (tiers), static (shares of the balancing settings) or dynamic (by demand)',
});
export const FlowKindEnum = enumFrom('FlowKind', FLOW_KINDS);
export const IntervalEnum = enumFrom('Interval', INTERVALS, { description: 'Bucket lengths as ISO 8601 durations' });
export const BalancingKindEnum = enumFrom('BalancingKind', BALANCING_KINDS);
export const MeterDirectionEnum = enumFrom('MeterDirection', DIRECTIONS);
export const MeterMeasuringEnum = enumFrom('MeterMeasuring', MEASURING);

export const InvoiceFormatEnum = enumFrom('InvoiceFormat', INVOICE_FORMATS, { description: 'pdf, facturx (PDF with embedded CII XML) or xrechnung (XML)' });
export const PrepaymentCycleEnum = enumFrom('PrepaymentCycle', PREPAYMENT_CYCLES);
export const FuelSourceEnum = enumFrom('FuelSource', FUEL_SOURCES, { description: 'coal is hard coal' });

export const PriceComponentKindEnum = enumFrom('PriceComponentKind', PRICE_COMPONENT_KINDS);
export const PriceUnitEnum = enumFrom('PriceUnit', PRICE_UNITS);
export const PriceComponentCategoryEnum = enumFrom('PriceComponentCategory', PRICE_COMPONENT_CATEGORIES);
export const TemplateKindEnum = enumFrom('TemplateKind', TEMPLATE_KINDS);
export const TemplateLocaleEnum = enumFrom('TemplateLocale', TEMPLATE_LOCALES, {
  description: 'BCP 47 language tags with "_" for "-", which a GraphQL name cannot hold: de_DE is REST\'s de-DE, en_GB is en-GB',
  nameOf: (locale) => locale.replace('-', '_'),
});
export const BillRunStateEnum = enumFrom('BillRunState', BILL_RUN_STATES);
export const BillRunPhaseEnum = enumFrom('BillRunPhase', BILL_RUN_PHASES);
export const InvoiceKindEnum = enumFrom('InvoiceKind', INVOICE_KINDS);
export const InvoiceStateEnum = enumFrom('InvoiceState', INVOICE_STATES);
export const EInvoiceProfileEnum = enumFrom('EInvoiceProfile', E_INVOICE_PROFILES, { description: 'xrechnung: XRechnung 3.0 CIUS; en16931: plain EN 16931' });

export const PaymentMethodTypeEnum = enumFrom('PaymentMethodType', PAYMENT_METHOD_TYPES);
export const PaymentTypeEnum = enumFrom('PaymentType', PAYMENT_TYPES);
export const PaymentStateEnum = enumFrom('PaymentState', PAYMENT_STATES, { description: 'submitted: in a payment run, set by the run only' });
export const PaymentRunTypeEnum = enumFrom('PaymentRunType', PAYMENT_RUN_TYPES);
export const PaymentRunStateEnum = enumFrom('PaymentRunState', PAYMENT_RUN_STATES);
export const PaymentRunSkipReasonEnum = enumFrom('PaymentRunSkipReason', SKIP_REASONS);
export const SequenceTypeEnum = enumFrom('SequenceType', SEQUENCE_TYPES, { description: 'SEPA direct debit sequence: FRST for a mandate’s first collection, RCUR after' });

export const WebhookDeliveryStateEnum = enumFrom('WebhookDeliveryState', DELIVERY_STATES);
