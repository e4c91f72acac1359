import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMarketLocationId, checkMeteringPointId, marketLocationCheckDigit } from '../../../core/domain/meters/meter.js';
import { createMeterCommand } from '../../../core/meters/meters.commands.js';
import { ValidationError } from '../../../core/errors.js';
import { parseInput } from '../../../core/validation.js';

/** Ten digits, the first not 0, and their check digit: a valid MaLo-ID. */
const validMalo = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }))
  .map(([first, rest]) => {
    const firstTen = `${first}${rest.join('')}`;
    return `${firstTen}${marketLocationCheckDigit(firstTen)}`;
  });

const replaceDigit = (id: string, position: number, digit: number) => `${id.slice(0, position)}${digit}${id.slice(position + 1)}`;

describe('MaLo-ID (market location id)', () => {
  it.each([
    // The example of the rule, worked by hand: a = 5+2+8+9+7 = 31, b = 2 × (1+3+6+6+8) = 48, (10 − 79 mod 10) mod 10 = 1.
    ['51238696781', null],
    // A second known-valid id (a = 17, b = 52, check digit 1).
    ['41373559241', null],
    // Derived from the rule: a = 1, b = 0 → (10 − 1) mod 10 = 9.
    ['10000000009', null],
    // a = 5, b = 2 × 5 = 10 → (10 − 15 mod 10) mod 10 = 5.
    ['55000000005', null],
    ['55000000000', 'invalid_check_digit'],
    ['51238696780', 'invalid_check_digit'],
    ['51238696782', 'invalid_check_digit'],
    ['41373559240', 'invalid_check_digit'],
    ['01238696781', 'invalid_format'],
    ['5123869678', 'invalid_format'],
    ['512386967811', 'invalid_format'],
    ['5123869678A', 'invalid_format'],
    [' 51238696781', 'invalid_format'],
    ['', 'invalid_format'],
  ])('%j: %s', (id, problem) => {
    expect(checkMarketLocationId(id)).toBe(problem);
  });

  it('computes the check digit (10 − ((a + b) mod 10)) mod 10 from odd positions (a) and twice the even ones (b)', () => {
    expect(marketLocationCheckDigit('5123869678')).toBe(1);
    // a = 5, b = 2 × 5 = 10: (a + b) mod 10 = 5 → 5.
    expect(marketLocationCheckDigit('5500000000')).toBe(5);
    // a = 6 + 4 = 10, b = 0: (a + b) mod 10 = 0 → 0, never 10.
    expect(marketLocationCheckDigit('6040000000')).toBe(0);
    expect(checkMarketLocationId('60400000000')).toBeNull();
  });

  it('accepts every id built from ten digits and their check digit, and no other last digit', () => {
    fc.assert(
      fc.property(validMalo, fc.integer({ min: 1, max: 9 }), (id, shift) => {
        expect(checkMarketLocationId(id)).toBeNull();
        expect(checkMarketLocationId(replaceDigit(id, 10, (Number(id[10]) + shift) % 10))).toBe('invalid_check_digit');
      }),
    );
  });

  it('refuses a valid id with any single digit changed, except by 5 at an even position (2 × 5 ≡ 0 mod 10: the rule cannot see that change)', () => {
    fc.assert(
      fc.property(validMalo, fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 9 }), (id, index, shift) => {
        const changed = replaceDigit(id, index, (Number(id[index]) + shift) % 10);
        const evenPosition = (index + 1) % 2 === 0 && index < 10;
        if (evenPosition && shift === 5) expect(checkMarketLocationId(changed)).toBeNull();
        else expect(checkMarketLocationId(changed)).not.toBeNull();
      }),
    );
    // The blind spot, concretely: position 2 of the example changed from 1 to 6.
    expect(checkMarketLocationId('56238696781')).toBeNull();
  });
});

describe('Zählpunktbezeichnung (metering point id)', () => {
  it.each([
    ['DE0001234567890123456789012345678', null],
    ['DE000562664680000000000000000000A', null],
    ['DEABCDEFGHIJKLMNOPQRSTUVWXYZ01234', null],
    ['DE000123456789012345678901234567', 'invalid_format'],
    ['DE00012345678901234567890123456789', 'invalid_format'],
    ['AT0001234567890123456789012345678', 'invalid_format'],
    ['de0001234567890123456789012345678', 'invalid_format'],
    ['DE000123456789012345678901234567a', 'invalid_format'],
    ['DE00012345678901234567890123456-8', 'invalid_format'],
    ['', 'invalid_format'],
  ])('%j: %s', (id, problem) => {
    expect(checkMeteringPointId(id)).toBe(problem);
  });

  it('accepts DE and any 31 upper-case letters or digits, and refuses any other length', () => {
    const character = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    fc.assert(
      fc.property(fc.array(character, { minLength: 0, maxLength: 40 }), (characters) => {
        expect(checkMeteringPointId(`DE${characters.join('')}`)).toBe(characters.length === 31 ? null : 'invalid_format');
      }),
    );
  });
});

describe('meter commands', () => {
  const meter = { siteId: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', direction: 'consumer', identifier: 'M-1', measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00.000Z' };
  const errorsOf = (body: unknown) => {
    try {
      parseInput(createMeterCommand, body);
      return [];
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return error.errors.map((e) => [e.path, e.code]);
    }
  };

  it('leaves both ids optional and nullable, and checks them when set, naming the field', () => {
    expect(parseInput(createMeterCommand, meter)).toMatchObject({ marketLocationId: null, meteringPointId: null });
    expect(parseInput(createMeterCommand, { ...meter, marketLocationId: null, meteringPointId: null })).toMatchObject({ marketLocationId: null, meteringPointId: null });
    expect(parseInput(createMeterCommand, { ...meter, marketLocationId: '51238696781', meteringPointId: 'DE0001234567890123456789012345678' })).toMatchObject({
      marketLocationId: '51238696781',
      meteringPointId: 'DE0001234567890123456789012345678',
    });
    expect(errorsOf({ ...meter, marketLocationId: '51238696782' })).toEqual([['marketLocationId', 'invalid_check_digit']]);
    expect(errorsOf({ ...meter, marketLocationId: '1234' })).toEqual([['marketLocationId', 'invalid_format']]);
    expect(errorsOf({ ...meter, meteringPointId: 'DE123' })).toEqual([['meteringPointId', 'invalid_format']]);
    expect(errorsOf({ ...meter, marketLocationId: 51238696781 })).toEqual([['marketLocationId', 'invalid_type']]);
  });
});
