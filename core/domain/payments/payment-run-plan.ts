import { mandateExpired, sequenceTypeFor, type MandateUse, type SequenceType } from './mandate-sequence.js';
import type { PaymentType } from './payment.js';
import { isSepaIdentifier } from './sepa-text.js';
import type { PaymentMethod } from './payment-method.js';
import type { PaymentRunType, SkippedCustomer, SkipReason } from './payment-run.js';

/** A payment a run may take: a pending one, or (no id yet) the open amount of an invoice. */
export interface Collectable {
  /** Null: a payment to create for the invoice's open amount. */
  paymentId: string | null;
  paymentType: PaymentType;
  contractId: string;
  customerId: string;
  invoiceId: string | null;
  /** Cents, positive. */
  amount: bigint;
  /** The method the payment names; else the customer's default is used. */
  paymentMethodId: string | null;
}

export interface PlannedItem<C extends Collectable = Collectable> {
  collectable: C;
  method: PaymentMethod;
  /** Direct debits only. */
  sequenceType: SequenceType | null;
}

export interface RunPlan<C extends Collectable = Collectable> {
  items: PlannedItem<C>[];
  skipped: SkippedCustomer[];
}

export interface PlanInput<C extends Collectable = Collectable> {
  type: PaymentRunType;
  collectionDate: string;
  collectables: readonly C[];
  /** Payment methods by id: those the payments name and every customer's default. */
  methods: ReadonlyMap<string, PaymentMethod>;
  defaultMethodOf: (customerId: string) => string | null;
  /** Earlier collections of a mandate version (see `mandateKey`) in runs that were not cancelled. */
  uses: (mandateKey: string) => readonly MandateUse[];
}

/** A mandate version: a new IBAN or mandate reference on the method starts a new one (FRST again). */
export const mandateKey = (method: Pick<PaymentMethod, 'id' | 'mandateReference' | 'iban'>): string => `${method.id}/${method.mandateReference ?? ''}/${method.iban ?? ''}`;

type Verdict = { ok: true; sequenceType: SequenceType | null } | { ok: false; reason: SkipReason; message: string };

function lastUse(signedAt: string, uses: readonly MandateUse[]): string {
  return uses.reduce((latest, use) => (use.collectionDate > latest ? use.collectionDate : latest), signedAt);
}

function verdict<C extends Collectable>(input: PlanInput<C>, method: PaymentMethod | undefined): Verdict {
  if (!method) return { ok: false, reason: 'no_payment_method', message: 'The customer has no default payment method and the payment names none.' };
  if (input.type === 'direct_debit' && (method.type !== 'sepa_direct_debit' || !method.mandateReference || !method.mandateSignedAt)) {
    return { ok: false, reason: 'no_mandate', message: `Payment method ${method.id} is not a SEPA direct debit with a signed mandate.` };
  }
  if (input.type === 'direct_debit' && !isSepaIdentifier(method.mandateReference!)) {
    return { ok: false, reason: 'no_mandate', message: `Mandate reference ${JSON.stringify(method.mandateReference)} of payment method ${method.id} is not a SEPA identifier; correct it.` };
  }
  if (!method.iban) return { ok: false, reason: 'no_iban', message: `Payment method ${method.id} has no IBAN.` };
  if (input.type === 'credit_transfer') return { ok: true, sequenceType: null };
  const uses = input.uses(mandateKey(method));
  if (mandateExpired(method.mandateSignedAt!, uses, input.collectionDate)) {
    return {
      ok: false,
      reason: 'mandate_expired',
      message: `Mandate ${method.mandateReference} was last used on ${lastUse(method.mandateSignedAt!, uses)}; a SEPA mandate expires after 36 months without a collection. Obtain a new mandate.`,
    };
  }
  return { ok: true, sequenceType: sequenceTypeFor(uses) };
}

/**
 * Which payments a run takes, through which method and with which sequence type, and which
 * customers it leaves out (one entry per customer and reason; their payments stay pending).
 */
export function planRun<C extends Collectable>(input: PlanInput<C>): RunPlan<C> {
  const items: PlannedItem<C>[] = [];
  const skipped = new Map<string, SkippedCustomer>();
  for (const collectable of input.collectables) {
    const methodId = collectable.paymentMethodId ?? input.defaultMethodOf(collectable.customerId);
    const method = methodId ? input.methods.get(methodId) : undefined;
    const found = verdict(input, method);
    if (found.ok) {
      items.push({ collectable, method: method!, sequenceType: found.sequenceType });
      continue;
    }
    const key = `${collectable.customerId}/${found.reason}`;
    const entry = skipped.get(key) ?? { customerId: collectable.customerId, reason: found.reason, message: found.message, paymentIds: [], invoiceIds: [] };
    if (collectable.paymentId) entry.paymentIds.push(collectable.paymentId);
    else if (collectable.invoiceId) entry.invoiceIds.push(collectable.invoiceId);
    skipped.set(key, entry);
  }
  return { items, skipped: [...skipped.values()] };
}
