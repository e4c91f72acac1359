import { describe, expect, it } from 'vitest';
import { mandateExpired, type MandateUse, sequenceTypeFor } from '../../../core/domain/payments/mandate-sequence.js';

const use = (collectionDate: string, sequenceType: MandateUse['sequenceType'], failed = false): MandateUse => ({ collectionDate, sequenceType, failed });

describe('sequenceTypeFor', () => {
  it.each<[string, MandateUse[], 'FRST' | 'RCUR']>([
    ['no history', [], 'FRST'],
    ['a failed FRST', [use('2026-01-05', 'FRST', true)], 'FRST'],
    ['two failed FRSTs', [use('2026-01-05', 'FRST', true), use('2026-02-05', 'FRST', true)], 'FRST'],
    ['a submitted FRST', [use('2026-01-05', 'FRST')], 'RCUR'],
    ['a failed FRST, then a successful one', [use('2026-01-05', 'FRST', true), use('2026-02-05', 'FRST')], 'RCUR'],
    ['a failed RCUR after a successful FRST', [use('2026-01-05', 'FRST'), use('2026-02-05', 'RCUR', true)], 'RCUR'],
    ['only a failed RCUR (presented, so the mandate is in use)', [use('2026-02-05', 'RCUR', true)], 'RCUR'],
  ])('%s → %s', (_, previous, expected) => {
    expect(sequenceTypeFor(previous)).toBe(expected);
  });
});

describe('mandateExpired', () => {
  it.each<[string, string, MandateUse[], string, boolean]>([
    ['never used, exactly 36 months after signing', '2023-03-15', [], '2026-03-15', false],
    ['never used, one day later', '2023-03-15', [], '2026-03-16', true],
    ['last collection exactly 36 months ago', '2020-01-10', [use('2023-03-15', 'RCUR')], '2026-03-15', false],
    ['last collection 36 months and a day ago', '2020-01-10', [use('2023-03-15', 'RCUR')], '2026-03-16', true],
    ['a failed collection counts as presented', '2020-01-10', [use('2023-03-15', 'FRST', true)], '2026-03-15', false],
    ['the latest collection counts, whatever the order', '2020-01-10', [use('2023-03-15', 'RCUR'), use('2021-01-10', 'FRST')], '2026-03-15', false],
    ['month end 2023-08-31 + 36 months = 2026-08-31', '2023-08-31', [], '2026-08-31', false],
    ['month end 2023-08-31, one day later', '2023-08-31', [], '2026-09-01', true],
    ['month end 2023-05-31, 36 months and a day later', '2023-05-31', [], '2026-06-01', true],
    ['29 Feb 2024 + 36 months = 28 Feb 2027', '2024-02-29', [], '2027-02-28', false],
    ['29 Feb 2024, the day after 28 Feb 2027', '2024-02-29', [], '2027-03-01', true],
    ['a recent collection keeps an old mandate alive', '2015-06-01', [use('2025-12-01', 'RCUR')], '2026-06-01', false],
  ])('%s', (_, signedAt, previous, collectionDate, expired) => {
    expect(mandateExpired(signedAt, previous, collectionDate)).toBe(expired);
  });
});
