import { describe, expect, it } from 'vitest';
import { remittanceText, type RemittanceSubject } from '../../core/payments/remittance.js';

describe('remittanceText', () => {
  const subject = (fields: Partial<RemittanceSubject>): RemittanceSubject => ({
    paymentType: 'payment',
    contractNumber: 'V-1',
    dueDate: '2026-09-15',
    documentNumber: null,
    documentKind: null,
    ...fields,
  });

  it.each([
    [subject({ paymentType: 'prepayment' }), 'de-DE', 'Abschlag 15.09.2026 Vertrag V-1'],
    [subject({ paymentType: 'prepayment' }), 'en-GB', 'Prepayment 15/09/2026 Contract V-1'],
    [subject({ documentNumber: 'INV-2026-000001', documentKind: 'invoice' }), 'de-DE', 'Rechnung INV-2026-000001 Vertrag V-1'],
    [subject({ documentNumber: 'INV-2026-000001', documentKind: 'invoice' }), 'en-GB', 'Invoice INV-2026-000001 Contract V-1'],
    [subject({ documentNumber: 'CN-2026-000001', documentKind: 'credit_note' }), 'de-DE', 'Stornorechnung CN-2026-000001 Vertrag V-1'],
    [subject({ documentNumber: 'CN-2026-000001', documentKind: 'credit_note' }), 'en-GB', 'Cancellation invoice CN-2026-000001 Contract V-1'],
    [subject({ documentNumber: 'Kaution März' }), 'de-DE', 'Rechnung Kaution März Vertrag V-1'],
    [subject({ paymentType: 'refund', documentNumber: 'CN-2026-000001', documentKind: 'credit_note' }), 'de-DE', 'Erstattung CN-2026-000001 Vertrag V-1'],
    [subject({ paymentType: 'refund' }), 'de-DE', 'Erstattung Vertrag V-1'],
    [subject({ paymentType: 'refund' }), 'en-GB', 'Refund Contract V-1'],
  ] as const)('%o in %s: %s', (given, locale, text) => {
    expect(remittanceText(given, locale)).toBe(text);
  });
});
