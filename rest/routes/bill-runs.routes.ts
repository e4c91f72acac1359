import { billRunView, createBillRunCommand, listBillRunsQuery } from '../../core/billing/bill-runs/bill-runs.commands.js';
import { eInvoiceQuery, invoiceView, lineItemView, listInvoicesQuery, listLineItemsQuery } from '../../core/billing/invoices/invoices.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** Bill runs, invoices and line items. */
export function billRunRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({
      path: '/v1/bill-runs',
      tag: 'Bill runs',
      singular: 'BillRun',
      plural: 'BillRuns',
      view: billRunView,
      service: s.billRuns,
      create: createBillRunCommand,
      list: listBillRunsQuery,
    }),
    {
      method: 'post',
      path: '/v1/bill-runs/{id}/complete',
      operationId: 'completeBillRun',
      summary: 'Issue every draft of a created run (numbers, locked prepayments, PDFs) in the background; also retries a failed completion',
      description:
        'Answers 202 at once with the run in state completing; a worker gives each draft its number, locks the prepayments it takes into account and stores its PDF. ' +
        'Poll the run for its state. 409 unless the run is created or its completion failed.',
      tag: 'Bill runs',
      response: { status: 202, description: 'The run, now completing', schema: billRunView },
      errors: [404, 409],
      handle: async ({ actor, params }) => ({ status: 202, body: await s.billRuns.complete(actor, params.id!) }),
    },
    {
      method: 'delete',
      path: '/v1/bill-runs/{id}',
      operationId: 'deleteBillRun',
      summary: 'Delete a run before completion, with its drafts',
      description: 'Removes the run and the draft invoices it made. 409 once any invoice of the run is issued: cancel those instead.',
      tag: 'Bill runs',
      response: { status: 204, description: 'Deleted' },
      errors: [404, 409],
      handle: async ({ actor, params }) => {
        await s.billRuns.delete(actor, params.id!);
        return { status: 204, body: undefined };
      },
    },
    ...resourceRoutes({
      path: '/v1/invoices',
      tag: 'Invoices',
      singular: 'Invoice',
      plural: 'Invoices',
      view: invoiceView,
      service: s.invoices,
      list: listInvoicesQuery,
    }),
    {
      method: 'get',
      path: '/v1/invoices/{id}/pdf',
      operationId: 'getInvoicePdf',
      summary: 'The PDF stored when the invoice was issued',
      description: 'The document as it was issued, never rendered again, offered as a download named by the invoice number. 404 for drafts, which have none yet.',
      tag: 'Invoices',
      response: { status: 200, description: 'The PDF', contentType: 'application/pdf' },
      errors: [404],
      handle: async ({ actor, params }) => {
        const { number, content } = await s.invoices.pdf(actor, params.id!);
        return { status: 200, body: content, contentType: 'application/pdf', fileName: `${number}.pdf` };
      },
    },
    {
      method: 'get',
      path: '/v1/invoices/{id}/e-invoice',
      operationId: 'getInvoiceEInvoice',
      summary: 'The EN 16931 e-invoice (UN/CEFACT CII D16B; XRechnung 3.0 CIUS unless profile=en16931) of an issued invoice or credit note',
      description:
        'The invoice or credit note as UN/CEFACT Cross Industry Invoice XML, offered as a download named by its number. ' +
        '409 for a draft, or when the seller profile or the customer lacks what the profile requires.',
      tag: 'Invoices',
      query: eInvoiceQuery,
      response: { status: 200, description: 'The CII XML', contentType: 'application/xml' },
      errors: [404, 409],
      handle: async ({ actor, params, query }) => {
        const { number, xml } = await s.invoices.eInvoice(actor, params.id!, query);
        return { status: 200, body: Buffer.from(xml, 'utf8'), contentType: 'application/xml', fileName: `${number}.xml` };
      },
    },
    {
      method: 'post',
      path: '/v1/invoices/{id}/cancel',
      operationId: 'cancelInvoice',
      summary: 'Cancel an issued or paid invoice with a credit note (prepayments unlocked, the period billable again)',
      description:
        'Issues a credit note with the negated lines and its own number and answers it with its URL in `Location`; the prepayments the invoice deducted are unlocked, ' +
        'what the customer paid towards it becomes a pending refund, and the period can be billed again. 409 when the invoice cannot be cancelled (`code` says why).',
      tag: 'Invoices',
      response: { status: 201, description: 'The credit note', schema: invoiceView },
      errors: [404, 409],
      handle: async ({ actor, params }) => {
        const creditNote = await s.invoices.cancel(actor, params.id!);
        return { status: 201, body: creditNote, location: `/v1/invoices/${creditNote.id}` };
      },
    },
    ...resourceRoutes({
      path: '/v1/line-items',
      tag: 'Invoices',
      singular: 'LineItem',
      plural: 'LineItems',
      view: lineItemView,
      service: s.lineItems,
      list: listLineItemsQuery,
    }),
  ];
}
