import { formatCents } from '../domain/billing/money.js';
import type { Payment } from '../domain/payments/payment.js';
import type { EventOutbox, NewEvent } from '../events/outbox.js';
import { timestampsOf } from '../resource.service.js';
import type { PaymentView } from './payments.commands.js';

export function presentPayment(payment: Payment): PaymentView {
  const { id, contractId, type, state, dueDate, paymentMethodId, reference, invoiceId } = payment;
  return {
    id,
    contractId,
    amount: formatCents(BigInt(payment.amount)),
    type,
    state,
    dueDate,
    receivedAt: payment.receivedAt?.toISOString() ?? null,
    paymentMethodId,
    reference,
    invoiceId,
    lockedAt: payment.lockedAt?.toISOString() ?? null,
    ...timestampsOf(payment),
  };
}

type PaymentEventType = 'payment.created' | 'payment.updated';

/** Presents payments and records one event for each (caused by a user, or the worker), with one statement for any number. */
export async function recordPayments(
  outbox: EventOutbox,
  causer: Pick<NewEvent, 'accountId' | 'userId'>,
  type: PaymentEventType,
  payments: readonly Payment[],
  siteOfContract: (contractId: string) => string,
): Promise<PaymentView[]> {
  const views = payments.map(presentPayment);
  await outbox.record(views.map((view) => ({ ...causer, type, entityId: view.id, data: view, siteIds: [siteOfContract(view.contractId)] })));
  return views;
}
