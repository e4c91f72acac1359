import { randomUUID } from 'node:crypto';
import { sitesOfContracts } from '../../contracts/contract-sites.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import { refundOwed, type Invoice } from '../../domain/billing/invoice.js';
import { pendingPayment } from '../../domain/payments/payment.js';
import type { EventOutbox, NewEvent } from '../../events/outbox.js';
import { recordPayments } from '../../payments/payment-events.js';
import type { PaymentMethodRepository, PaymentRepository } from '../../payments/payments.repository.js';

export interface InvoiceRefundsDependencies {
  contracts: ContractRepository;
  payments: PaymentRepository;
  paymentMethods: PaymentMethodRepository;
  outbox: EventOutbox;
}

/** An invoice that may owe the customer money back, and what its refund would carry. */
export interface RefundRequest {
  invoice: Invoice;
  /** What the customer sees on the payout: the number of the invoice or of its credit note. */
  reference: string;
  dueDate: string;
}

/**
 * Pays back what customers are owed on invoices (`refundOwed`): a pending refund naming each
 * invoice that owes anything, to its customer's default payment method, staged together, each
 * with its `payment.created`. Refunds already under way count, so a repeated request adds none.
 */
export async function stageRefunds(
  deps: InvoiceRefundsDependencies,
  causer: Pick<NewEvent, 'accountId' | 'userId'>,
  requests: readonly RefundRequest[],
  now: Date,
): Promise<void> {
  const { accountId } = causer;
  if (requests.length === 0) return;
  const named = await deps.payments.findByInvoiceIds(accountId, requests.map((r) => r.invoice.id));
  const owing = requests.flatMap((request) => {
    const amount = refundOwed(request.invoice, named.filter((p) => p.invoiceId === request.invoice.id));
    return amount > 0n ? [{ ...request, amount }] : [];
  });
  if (owing.length === 0) return;
  const customerIds = [...new Set(owing.map((o) => o.invoice.customerId))];
  const defaults = new Map((await deps.paymentMethods.findByCustomerIds(accountId, customerIds)).filter((m) => m.isDefault).map((m) => [m.customerId, m.id]));
  const refunds = owing.map(({ invoice, reference, dueDate, amount }) =>
    pendingPayment(
      { id: randomUUID(), accountId, contractId: invoice.contractId, amount, type: 'refund', dueDate, paymentMethodId: defaults.get(invoice.customerId) ?? null, reference, invoiceId: invoice.id },
      now,
    ),
  );
  deps.payments.addAll(refunds);
  const siteOf = await sitesOfContracts(deps.contracts, accountId, refunds.map((r) => r.contractId));
  await recordPayments(deps.outbox, causer, 'payment.created', refunds, (contractId) => siteOf.get(contractId)!);
}
