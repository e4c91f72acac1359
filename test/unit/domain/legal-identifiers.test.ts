import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkGermanVatId,
  checkSepaCreditorId,
  checkTaxNumber,
  iso7064Mod11_10CheckDigit,
  iso7064Mod97,
  sepaCreditorCheckDigits,
} from '../../../core/domain/legal/identifiers.js';

const digits = (min: number, max = min) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** The same string with the digit at `index` replaced by another digit. */
const changeDigit = (value: string, index: number, shift: number) => {
  const digit = (Number(value[index]) + shift) % 10;
  return `${value.slice(0, index)}${digit}${value.slice(index + 1)}`;
};

/** Indexes of the decimal digits of a string. */
const digitIndexes = (value: string) => [...value].flatMap((c, i) => (/\d/.test(c) ? [i] : []));

describe('ISO 7064 MOD 11,10', () => {
  it('gives the check digits of known German VAT ids', () => {
    expect(iso7064Mod11_10CheckDigit('13669597')).toBe(6);
    expect(iso7064Mod11_10CheckDigit('81190798')).toBe(0);
    expect(iso7064Mod11_10CheckDigit('12927339')).toBe(8);
  });

  it('answers a single decimal digit', () => {
    fc.assert(fc.property(digits(1, 20), (d) => Number.isInteger(iso7064Mod11_10CheckDigit(d)) && iso7064Mod11_10CheckDigit(d) >= 0 && iso7064Mod11_10CheckDigit(d) <= 9));
  });

  it('refuses what is not digits', () => {
    expect(() => iso7064Mod11_10CheckDigit('12a')).toThrow(RangeError);
    expect(() => iso7064Mod11_10CheckDigit('')).toThrow(RangeError);
  });
});

describe('ISO 7064 MOD 97-10', () => {
  it('equals the remainder computed with big integers', () => {
    fc.assert(fc.property(digits(1, 40), (d) => iso7064Mod97(d) === Number(BigInt(d) % 97n)));
  });
});

describe('German VAT id (USt-IdNr.)', () => {
  it('accepts known valid ids, normalised: spaces removed, upper case', () => {
    for (const id of ['DE136695976', 'DE811907980', 'DE129273398']) expect(checkGermanVatId(id)).toEqual({ ok: true, value: id });
    expect(checkGermanVatId(' de 136 695 976 ')).toEqual({ ok: true, value: 'DE136695976' });
  });

  it.each([
    ['DE13669597', 'eight digits'],
    ['DE1366959761', 'ten digits'],
    ['AT136695976', 'another country'],
    ['ATU12345678', 'an Austrian id'],
    ['136695976', 'no country code'],
    ['DE13669597X', 'a letter'],
    ['', 'nothing'],
  ])('refuses %s (%s) as invalid_format', (id) => {
    expect(checkGermanVatId(id)).toEqual({ ok: false, problem: 'invalid_format' });
  });

  it('refuses a wrong check digit', () => {
    expect(checkGermanVatId('DE136695975')).toEqual({ ok: false, problem: 'invalid_check_digit' });
    expect(checkGermanVatId('DE143593636')).toEqual({ ok: false, problem: 'invalid_check_digit' });
  });

  it('accepts every id whose last digit is the MOD 11,10 check digit of the first eight', () => {
    fc.assert(fc.property(digits(8), (body) => checkGermanVatId(`DE${body}${iso7064Mod11_10CheckDigit(body)}`).ok));
  });

  it('refuses a valid id with any single digit changed', () => {
    fc.assert(
      fc.property(digits(8), fc.integer({ min: 2, max: 10 }), fc.integer({ min: 1, max: 9 }), (body, index, shift) => {
        const valid = `DE${body}${iso7064Mod11_10CheckDigit(body)}`;
        expect(checkGermanVatId(changeDigit(valid, index, shift))).toEqual({ ok: false, problem: 'invalid_check_digit' });
      }),
    );
  });
});

describe('SEPA creditor identifier (Gläubiger-ID)', () => {
  it('accepts known valid ids, normalised: spaces removed, upper case', () => {
    for (const id of ['DE98ZZZ09999999999', 'AT61ZZZ01234567890', 'ES59ZZZX1234567L', 'IT66ZZZA1B2C3D4E5F6G7H8']) {
      expect(checkSepaCreditorId(id)).toEqual({ ok: true, value: id });
    }
    expect(checkSepaCreditorId('de98 zzz 0999 9999 999')).toEqual({ ok: true, value: 'DE98ZZZ09999999999' });
  });

  it('leaves the business code out of the check', () => {
    for (const business of ['ZZZ', 'ABC', '001', 'X9Y']) expect(checkSepaCreditorId(`DE98${business}09999999999`).ok).toBe(true);
  });

  it.each([
    ['DE98ZZZ0999999999', 'a German national id of ten digits'],
    ['DE98ZZZ099999999990', 'a German national id of twelve digits'],
    ['DE98ZZZ0999999999X', 'a letter in a German national id'],
    ['D98ZZZ09999999999', 'a one-letter country code'],
    ['DEXXZZZ09999999999', 'letters for check digits'],
    ['DE98ZZ', 'no national id'],
    [`NL00ZZZ${'1'.repeat(29)}`, 'more than 35 characters'],
    ['DE98-ZZZ-09999999999', 'hyphens'],
  ])('refuses %s (%s) as invalid_format', (id) => {
    expect(checkSepaCreditorId(id)).toEqual({ ok: false, problem: 'invalid_format' });
  });

  it('refuses wrong check digits', () => {
    expect(checkSepaCreditorId('DE97ZZZ09999999999')).toEqual({ ok: false, problem: 'invalid_check_digit' });
    expect(checkSepaCreditorId('AT98ZZZ09999999999')).toEqual({ ok: false, problem: 'invalid_check_digit' });
  });

  it('computes the check digits of the known example', () => {
    expect(sepaCreditorCheckDigits('DE', '09999999999')).toBe('98');
  });

  it('refuses a valid German id with any single digit of its check digits or national id changed', () => {
    fc.assert(
      fc.property(digits(11), fc.stringMatching(/^[A-Z0-9]{3}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (national, business, pick, shift) => {
        const valid = `DE${sepaCreditorCheckDigits('DE', national)}${business}${national}`;
        expect(checkSepaCreditorId(valid).ok).toBe(true);
        // The checked digits: the check digits (2, 3) and the national id (7 on); the business code is not checked.
        const checked = digitIndexes(valid).filter((i) => i < 4 || i >= 7);
        const index = checked[pick % checked.length]!;
        expect(checkSepaCreditorId(changeDigit(valid, index, shift))).toEqual({ ok: false, problem: 'invalid_check_digit' });
      }),
    );
  });

  it('refuses a valid id of any country with any single digit of its national id changed', () => {
    fc.assert(
      fc.property(fc.constantFrom('AT', 'FR', 'NL', 'ES', 'IT'), fc.stringMatching(/^[A-Z0-9]{0,10}\d[A-Z0-9]{0,10}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (country, national, pick, shift) => {
        const valid = `${country}${sepaCreditorCheckDigits(country, national)}ZZZ${national}`;
        expect(checkSepaCreditorId(valid).ok).toBe(true);
        const indexes = digitIndexes(valid).filter((i) => i >= 7);
        expect(checkSepaCreditorId(changeDigit(valid, indexes[pick % indexes.length]!, shift))).toEqual({ ok: false, problem: 'invalid_check_digit' });
      }),
    );
  });
});

describe('tax number (Steuernummer)', () => {
  it.each(['21/815/08150', '2181508150', '1121081508150', '93815 08152', '181/815/08155'])('accepts %s', (value) => {
    expect(checkTaxNumber(value)).toEqual({ ok: true, value });
  });

  it('trims and collapses runs of spaces', () => {
    expect(checkTaxNumber('  93815   08152 ')).toEqual({ ok: true, value: '93815 08152' });
  });

  it.each(['', 'abc', '21-815-08150', '/21/815', '21/815/', 'DE136695976', '1'.repeat(21)])('refuses %j as invalid_format', (value) => {
    expect(checkTaxNumber(value)).toEqual({ ok: false, problem: 'invalid_format' });
  });
});
