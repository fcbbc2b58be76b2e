import {
  DOSAGE_FORMS,
  MOVEMENT_KINDS,
  PRESCRIPTION_STATUSES,
  ROUTES,
} from '@greensen/shared/contracts/pharmacy';
import { describe, expect, it } from 'vitest';
import { dosageForm, medicationRoute, movementKind, prescriptionStatus } from '../../db/schema/index.js';
import { MEDICATION_GROUPS, parseReferenceTsv, shippedReference } from './medication-reference.js';
import {
  allergyClassesOf,
  computedQuantity,
  matchingAllergy,
  sameUnit,
  substancesOf,
} from './pharmacy.rules.js';

const amoxicillin = {
  innFr: 'amoxicilline',
  innEn: 'amoxicillin',
  allergyClasses: ['penicillins', 'beta_lactams'],
};
const ceftriaxone = {
  innFr: 'ceftriaxone',
  innEn: 'ceftriaxone',
  allergyClasses: ['cephalosporins', 'beta_lactams'],
};
const cotrimoxazole = {
  innFr: 'sulfaméthoxazole + triméthoprime (cotrimoxazole)',
  innEn: 'sulfamethoxazole + trimethoprim (co-trimoxazole)',
  allergyClasses: ['sulfonamides'],
};
const ibuprofen = { innFr: 'ibuprofène', innEn: 'ibuprofen', allergyClasses: ['nsaids'] };
const paracetamol = { innFr: 'paracétamol', innEn: 'paracetamol', allergyClasses: [] };
const al = {
  innFr: 'artéméther + luméfantrine',
  innEn: 'artemether + lumefantrine',
  allergyClasses: ['artemisinins'],
};

describe('allergy matching (the synonym table)', () => {
  it.each([
    ['Pénicilline', amoxicillin],
    ['penicillin', amoxicillin],
    ['Allergie aux pénicillines', amoxicillin],
    ['AMOXICILLINE', amoxicillin],
    ['Sulfamides', cotrimoxazole],
    ['sulfa drugs', cotrimoxazole],
    ['Bactrim', cotrimoxazole],
    ['AINS', ibuprofen],
    ['NSAID', ibuprofen],
    ['Aspirine', ibuprofen],
    ['bêta-lactamines', ceftriaxone],
    ['céphalosporines', ceftriaxone],
    ['luméfantrine', al],
    ['Artemether', al],
  ])('"%s" blocks %o', (allergy, medication) => {
    expect(matchingAllergy([allergy], medication)).toBe(allergy);
  });

  it.each([
    ['Pénicilline', paracetamol],
    ['Pénicilline', ceftriaxone],
    ['Arachide', amoxicillin],
    ['Sulfamides', ibuprofen],
    ['AINS', paracetamol],
    ['Latex', al],
  ])('"%s" does not block %o', (allergy, medication) => {
    expect(matchingAllergy([allergy], medication)).toBeNull();
  });

  it('names classes and substances the way the table says', () => {
    expect(allergyClassesOf('Pénicilline')).toContain('penicillins');
    expect(allergyClassesOf('aspirine')).toEqual(expect.arrayContaining(['nsaids', 'salicylates']));
    expect(substancesOf('artéméther + luméfantrine (Coartem)')).toEqual(['artemether', 'lumefantrine']);
  });
});

describe('computed quantity', () => {
  const q = (over: Partial<Parameters<typeof computedQuantity>[0]>) =>
    computedQuantity({
      dose: 1,
      dose_unit: 'tablet',
      unit: 'tablet',
      frequency: { kind: 'times_per_day', times: 3 },
      duration_days: 5,
      ...over,
    });

  it('multiplies units per administration, administrations per day and days, rounded up', () => {
    expect(q({})).toBe(15);
    expect(q({ dose: 2, dose_unit: 'comprimés' })).toBe(30);
    expect(q({ dose: 0.5, dose_unit: 'cp', duration_days: 3 })).toBe(5);
    expect(q({ frequency: { kind: 'every_hours', hours: 8 } })).toBe(15);
    expect(q({ frequency: { kind: 'every_hours', hours: 6 }, duration_days: 2 })).toBe(8);
    expect(q({ frequency: { kind: 'at_night' }, duration_days: 10 })).toBe(10);
    expect(q({ frequency: { kind: 'as_needed', max_per_day: 4 }, duration_days: 3 })).toBe(12);
    expect(q({ frequency: { kind: 'once' }, dose: 2 })).toBe(2);
    expect(q({ frequency: { kind: 'once' }, dose: 3, dose_unit: 'mg' })).toBe(1);
  });

  it('counts one unit per administration when the dose is in another unit (500 mg from an ampoule)', () => {
    expect(
      q({ dose: 500, dose_unit: 'mg', unit: 'vial', frequency: { kind: 'every_hours', hours: 12 } }),
    ).toBe(10);
    expect(sameUnit('flacon', 'bottle')).toBe(true);
    expect(sameUnit('mg', 'tablet')).toBe(false);
  });

  it('counts one day when no duration is set', () => {
    expect(q({ duration_days: null, frequency: { kind: 'as_needed', max_per_day: 3 } })).toBe(3);
  });
});

describe('the shipped reference', () => {
  const { rows } = shippedReference();

  it('holds at least 120 medicines with both INNs, an ATC code, a group and presentations', () => {
    expect(rows.length).toBeGreaterThanOrEqual(120);
    for (const m of rows) {
      expect(m.innFr && m.innEn && m.atcCode, m.code).toBeTruthy();
      expect(m.presentations.length, m.code).toBeGreaterThan(0);
    }
    const codes = rows.map((m) => m.atcCode);
    for (const atc of [
      'P01BF01',
      'P01BF03',
      'P01BE03',
      'P01BC01',
      'J01CA04',
      'J01CR02',
      'J01DD04',
      'J05AR27',
    ])
      expect(codes).toContain(atc);
    expect(rows.filter((m) => m.presentations.some((p) => p.paediatric)).length).toBeGreaterThan(30);
  });

  it('refuses a malformed reference line', () => {
    const head = 'code\tinn_fr\tinn_en\tatc_code\tgroup\tallergy_classes\tbrands\tpresentations';
    expect(() => parseReferenceTsv(`${head}\nx\tx\tx\tP01\tnope\t\t\ttablet|1 mg|oral|tablet`)).toThrow();
    expect(() =>
      parseReferenceTsv(`${head}\nx\tx\tx\tP01\tantimalarials\t\t\tpill|1 mg|oral|tablet`),
    ).toThrow();
    expect(Object.keys(MEDICATION_GROUPS).length).toBeGreaterThan(20);
  });

  it("keeps the schema's enums equal to the contracts' lists", () => {
    expect(dosageForm.enumValues).toEqual([...DOSAGE_FORMS]);
    expect(medicationRoute.enumValues).toEqual([...ROUTES]);
    expect(prescriptionStatus.enumValues).toEqual([...PRESCRIPTION_STATUSES]);
    expect(movementKind.enumValues).toEqual([...MOVEMENT_KINDS]);
  });
});
