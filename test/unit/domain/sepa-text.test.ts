import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactId, ID_MAX, NAME_MAX, REMITTANCE_MAX, sepaIdentifier, sepaText, sepaTextOrNull } from '../../../core/domain/payments/sepa-text.js';

const SEPA_CHARACTERS = /^[A-Za-z0-9/\-?:().,'+ ]+$/;

describe('sepaText', () => {
  it.each([
    ['Müller & Söhne GmbH', 'Mueller + Soehne GmbH'],
    ['ÄÖÜ äöü', 'AeOeUe aeoeue'],
    ['Straße', 'Strasse'],
    ['GROẞ', 'GROSS'],
    ['Mu\u0308ller', 'Mueller'],
    ['José Núñez', 'Jose Nunez'],
    ['Łódź', 'Lodz'],
    ['Ærøskøbing', 'AEroskobing'],
    ['François Çelik', 'Francois Celik'],
    ['ﬁrma Ｍüller', 'firma Mueller'],
    ['Café 😀 Bar', 'Cafe Bar'],
    ['<b>"Quoted"</b> 100 %', 'b Quoted /b 100'],
    ["O'Brien (Ltd.), a/c 12-3?+:", "O'Brien (Ltd.), a/c 12-3?+:"],
    ['  Tab\there\nand\r\nthere  ', 'Tab here and there'],
    ['info@example.com', 'info example.com'],
    ['😀🎉', 'NOTPROVIDED'],
    ['', 'NOTPROVIDED'],
    ['   ', 'NOTPROVIDED'],
  ])('%j → %j', (value, expected) => {
    expect(sepaText(value, NAME_MAX)).toBe(expected);
  });

  it('cuts long names to 70 characters', () => {
    const name = 'Jürgen Groß-Überlänge Ölmühlenbetriebsgesellschaft mbH & Co. KG Abteilung Energiebeschaffung';
    expect(sepaText(name, NAME_MAX)).toBe('Juergen Gross-Ueberlaenge Oelmuehlenbetriebsgesellschaft mbH + Co. KG');
    expect(sepaText('A'.repeat(200), REMITTANCE_MAX)).toBe('A'.repeat(140));
  });

  it('never leaves a trailing space where it cuts', () => {
    expect(sepaText(`${'x'.repeat(69)} yz`, NAME_MAX)).toBe('x'.repeat(69));
  });

  it('answers null from sepaTextOrNull when nothing is left, and NOTPROVIDED cut to the length from sepaText', () => {
    expect(sepaTextOrNull('😀', NAME_MAX)).toBeNull();
    expect(sepaTextOrNull('Bonn', 35)).toBe('Bonn');
    expect(sepaText('', 5)).toBe('NOTPR');
  });

  const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constantFrom('Müller & Söhne', '😀', ' ', 'ẞ'));

  it('writes only the SEPA character set, 1 to max characters, no leading, trailing or double space', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: REMITTANCE_MAX }), (value, max) => {
        const text = sepaText(value, max);
        expect(text).toMatch(SEPA_CHARACTERS);
        expect(text.length).toBeGreaterThanOrEqual(1);
        expect(text.length).toBeLessThanOrEqual(max);
        expect(text).toBe(text.trim());
        expect(text).not.toContain('  ');
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves its own output unchanged', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        expect(sepaText(sepaText(value, NAME_MAX), NAME_MAX)).toBe(sepaText(value, NAME_MAX));
      }),
    );
  });
});

describe('sepaIdentifier', () => {
  it.each(['RUN-2026-03', 'a', 'X'.repeat(ID_MAX), "A/B-C?D:E(F).G,H'I+J K", '0f8fad5bd9cb469fa16570867728950e'])('accepts %j', (id) => {
    expect(sepaIdentifier(id)).toBe(id);
  });

  it.each(['', 'X'.repeat(ID_MAX + 1), '/abc', 'abc/', 'a//b', 'Müller', 'a_b', 'a&b', '<id>', 'tab\there'])('refuses %j', (id) => {
    expect(() => sepaIdentifier(id)).toThrow(/invalid SEPA identifier/);
  });
});

describe('compactId', () => {
  it('drops the dashes of a UUID, in lower case', () => {
    expect(compactId('123E4567-e89b-12d3-a456-426614174000')).toBe('123e4567e89b12d3a456426614174000');
  });

  it('refuses what is not a UUID', () => {
    expect(() => compactId('123e4567e89b12d3a456426614174000')).toThrow(/not a UUID/);
  });

  it('gives a valid identifier for any UUID', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(sepaIdentifier(compactId(uuid))).toMatch(/^[0-9a-f]{32}$/);
      }),
    );
  });
});
