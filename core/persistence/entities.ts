import { AccountEntity, ApiTokenEntity, RefreshTokenEntity, UserEntity } from './accounts/account.entities.js';
import { BalanceDayEntity, BalancingDayEntity, BalancingDirtyRangeEntity } from './balancing/balance.persistence.js';
import { BalancingSettingEntity } from './balancing/balancing-setting.persistence.js';
import { PriceComponentEntity, PriceComponentGroupEntity, PriceEntity } from './billing/price.persistence.js';
import { TaxRateEntity } from './billing/tax-rate.persistence.js';
import { TemplateEntity } from './billing/template.persistence.js';
import { BillRunEntity, BillRunErrorEntity, InvoiceCounterEntity, InvoiceEInvoiceEntity, InvoiceEntity, InvoicePdfEntity, LineItemEntity, OutdatedDraftEntity } from './billing/invoice.persistence.js';
import { ContractEntity, ContractMeterEntity } from './contracts/contract.persistence.js';
import { CustomAttributeEntity } from './custom-attributes/custom-attribute.entity.js';
import { CustomerEntity } from './customers/customer.persistence.js';
import { MeasurementDayEntity, SparseReadingEntity } from './measurements/measurement.persistence.js';
import { MeterEntity } from './meters/meter.persistence.js';
import { PaymentEntity, PaymentMethodEntity, PrepaymentAmountEntity, PrepaymentRequestEntity } from './payments/payment.persistence.js';
import { PaymentRunEntity, PaymentRunItemEntity } from './payments/payment-run.persistence.js';
import { EventEntity } from './events/event.persistence.js';
import { WebhookDeliveryEntity, WebhookEndpointEntity, WebhookLeaseEntity } from './webhooks/webhook.persistence.js';
import { MpoEntity } from './mpos/mpo.persistence.js';
import { ProductEntity } from './products/product.persistence.js';
import { SiteEntity } from './sites/site.entity.js';

export const entities = [
  AccountEntity,
  UserEntity,
  ApiTokenEntity,
  RefreshTokenEntity,
  SiteEntity,
  CustomAttributeEntity,
  MpoEntity,
  ProductEntity,
  CustomerEntity,
  MeterEntity,
  ContractEntity,
  ContractMeterEntity,
  BalancingSettingEntity,
  MeasurementDayEntity,
  SparseReadingEntity,
  BalanceDayEntity,
  BalancingDayEntity,
  BalancingDirtyRangeEntity,
  TaxRateEntity,
  PriceComponentGroupEntity,
  PriceComponentEntity,
  PriceEntity,
  TemplateEntity,
  PaymentMethodEntity,
  PaymentEntity,
  PrepaymentAmountEntity,
  PrepaymentRequestEntity,
  EventEntity,
  WebhookEndpointEntity,
  WebhookLeaseEntity,
  WebhookDeliveryEntity,
  BillRunEntity,
  BillRunErrorEntity,
  InvoiceEntity,
  LineItemEntity,
  InvoiceCounterEntity,
  InvoicePdfEntity,
  InvoiceEInvoiceEntity,
  OutdatedDraftEntity,
  PaymentRunEntity,
  PaymentRunItemEntity,
];
