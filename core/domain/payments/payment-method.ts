export const PAYMENT_METHOD_TYPES = ['sepa_direct_debit', 'bank_transfer'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** How a customer pays; at most one per customer is the default. The IBAN is never logged. */
export class PaymentMethod {
  id!: string;
  accountId!: string;
  customerId!: string;
  type!: PaymentMethodType;
  accountHolder!: string | null;
  /** Electronic form, e.g. DE89370400440532013000. */
  iban!: string | null;
  bic!: string | null;
  mandateReference!: string | null;
  /** Calendar date the SEPA mandate was signed. */
  mandateSignedAt!: string | null;
  isDefault!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}
