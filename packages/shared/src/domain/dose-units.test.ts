import { describe, expect, it } from 'vitest';
import { doseUnitLabel } from './dose-units.js';

describe('doseUnitLabel (issue 37: the unit as the language writes it, agreeing with the amount)', () => {
  it('reads a code in words, by the plural rule of each language', () => {
    expect(doseUnitLabel('capsule', 1, 'fr')).toBe('gélule');
    expect(doseUnitLabel('capsule', 1.5, 'fr')).toBe('gélule');
    expect(doseUnitLabel('capsule', 2, 'fr')).toBe('gélules');
    expect(doseUnitLabel('capsule', 1.5, 'en')).toBe('capsules');
    expect(doseUnitLabel('IU', 10, 'fr')).toBe('UI');
  });

  it('reads a unit written as words (older prescriptions, the demo) as its code: « 4 comprimés », "4 tablets"', () => {
    expect(doseUnitLabel('comprimé', 4, 'fr')).toBe('comprimés');
    expect(doseUnitLabel('Comprimé', 1, 'fr')).toBe('comprimé');
    expect(doseUnitLabel('comprimé', 4, 'en')).toBe('tablets');
    expect(doseUnitLabel('tablets', 1, 'fr')).toBe('comprimé');
  });

  it('keeps any other free text as written', () => {
    expect(doseUnitLabel('cuillère à café', 2, 'fr')).toBe('cuillère à café');
  });
});
