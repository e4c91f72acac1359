import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPUTE_RESOLUTION_TEXT,
  disputeResolutionTextOf,
  missingSellerDetails,
  TAX_IDENTIFIER,
  type SellerDetails,
} from '../../../core/domain/accounts/seller-details.js';

const complete: SellerDetails = {
  companyName: 'Stadtwerke Musterstadt GmbH',
  address: { line1: 'Hauptstraße 1', line2: null, line3: null, line4: null, locality: 'Musterstadt', postCode: '12345', country: 'DE' },
  vatId: 'DE136695976',
  taxNumber: null,
  contact: { email: 'service@stadtwerke.test', phone: '+49 30 123456', website: null },
  bankAccount: { accountHolder: null, iban: 'DE89370400440532013000', bic: null },
};

describe('missingSellerDetails: name, address, vatId or taxNumber, contact email and phone, bank IBAN', () => {
  it.each<[string, Partial<SellerDetails>, string[]]>([
    ['a complete profile', {}, []],
    ['a tax number instead of the VAT id', { vatId: null, taxNumber: '21/815/08150' }, []],
    ['both tax identifiers', { taxNumber: '21/815/08150' }, []],
    ['no website, register or BIC (not required)', { contact: { ...complete.contact, website: null } }, []],
    ['a blank company name', { companyName: '  ' }, ['companyName']],
    ['no address', { address: null }, ['address']],
    ['neither VAT id nor tax number', { vatId: null, taxNumber: null }, [TAX_IDENTIFIER]],
    ['blank tax identifiers', { vatId: '', taxNumber: ' ' }, ['vatId|taxNumber']],
    ['no contact e-mail', { contact: { ...complete.contact, email: null } }, ['contact.email']],
    ['no contact phone', { contact: { ...complete.contact, phone: null } }, ['contact.phone']],
    ['an empty contact', { contact: { email: null, phone: null, website: 'www.stadtwerke.test' } }, ['contact.email', 'contact.phone']],
    ['no bank account', { bankAccount: null }, ['bankAccount.iban']],
    ['a bank account without IBAN', { bankAccount: { accountHolder: 'X', iban: '', bic: null } }, ['bankAccount.iban']],
    [
      'an empty profile, every gap in order',
      { companyName: '', address: null, vatId: null, taxNumber: null, contact: { email: null, phone: null, website: null }, bankAccount: null },
      ['companyName', 'address', 'vatId|taxNumber', 'contact.email', 'contact.phone', 'bankAccount.iban'],
    ],
  ])('%s', (_name, change, missing) => {
    expect(missingSellerDetails({ ...complete, ...change })).toEqual(missing);
  });
});

describe('dispute resolution text', () => {
  it('is the account’s own, or the default naming the Schlichtungsstelle Energie and the Bundesnetzagentur', () => {
    expect(disputeResolutionTextOf({ disputeResolutionText: 'Eigener Text.' })).toBe('Eigener Text.');
    expect(disputeResolutionTextOf({ disputeResolutionText: null })).toBe(DEFAULT_DISPUTE_RESOLUTION_TEXT);
    for (const part of ['Schlichtungsstelle Energie e.V.', 'Friedrichstraße 133, 10117 Berlin', 'www.schlichtungsstelle-energie.de', 'Verbraucherservice', 'Bundesnetzagentur']) {
      expect(DEFAULT_DISPUTE_RESOLUTION_TEXT).toContain(part);
    }
  });
});
