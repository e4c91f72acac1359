import { describe, expect, it } from 'vitest';
import { issuingBlocker } from '../../../core/domain/billing/legal-requirements.js';

const address = { line1: 'Hauptstraße 1', line2: null, line3: null, line4: null, locality: 'Berlin', postCode: '10115', country: 'DE' };

describe('issuingBlocker', () => {
  it.each([
    ['complete seller, customer with address', [], address, null],
    ['complete seller, customer without address', [], null, 'customer_address_missing'],
    ['incomplete seller, customer with address', ['bankAccount.iban'], address, 'seller_profile_incomplete'],
    ['incomplete seller wins over a missing customer address', ['address', 'contact.phone'], null, 'seller_profile_incomplete'],
  ] as const)('%s', (_, missing, customerAddress, code) => {
    const blocker = issuingBlocker(missing, { id: 'c1', address: customerAddress });
    expect(blocker?.code ?? null).toBe(code);
  });

  it('names what the seller profile lacks and which customer has no address', () => {
    expect(issuingBlocker(['address', 'contact.phone'], { id: 'c1', address })!.message).toContain('address, contact.phone');
    expect(issuingBlocker([], { id: 'c7', address: null })!.message).toContain('c7');
  });
});
