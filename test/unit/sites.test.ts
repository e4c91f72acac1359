import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../core/domain/addresses/address.js';
import { isBalanced, resolutionOf, SITE_TYPES } from '../../core/domain/sites/site.js';
import { createSiteCommand } from '../../core/sites/sites.commands.js';

describe('site rules', () => {
  it.each([
    ['balanced_accurate', 'PT15M', true],
    ['balanced_inaccurate', 'P1M', true],
    ['unbalanced_accurate', 'PT15M', false],
    ['unbalanced_inaccurate', 'P1M', false],
  ] as const)('%s has resolution %s (balanced: %s)', (type, resolution, balanced) => {
    expect(resolutionOf(type)).toBe(resolution);
    expect(isBalanced(type)).toBe(balanced);
  });

  it('knows four types', () => {
    expect(SITE_TYPES).toHaveLength(4);
  });

  it('accepts assigned ISO country codes in upper case only', () => {
    expect(['DE', 'AT', 'CH', 'FR', 'NL'].every(isCountryCode)).toBe(true);
    expect(['de', 'XX', 'ZZ', 'DEU', '', 'D1'].some(isCountryCode)).toBe(false);
  });

  it('derives the resolution, trims text and fills absent address lines with null', () => {
    const command = createSiteCommand.parse({
      name: '  Haus  ',
      type: 'balanced_inaccurate',
      address: { locality: 'Berlin', postCode: '10115', country: 'DE' },
    });
    expect(command).toEqual({
      name: 'Haus',
      type: 'balanced_inaccurate',
      balanceResolution: 'P1M',
      address: { line1: null, line2: null, line3: null, line4: null, locality: 'Berlin', postCode: '10115', country: 'DE' },
      customAttributes: {},
    });
  });
});
