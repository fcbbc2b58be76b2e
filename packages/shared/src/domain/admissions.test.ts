import { describe, expect, it } from 'vitest';
import { DEPARTMENT_KINDS } from '../contracts/structure.js';
import { ADMISSION_TYPES_BY_DEPARTMENT_KIND, admissionTypesFor, receivesPatients } from './admissions.js';

describe('visit types by department kind (issue 25)', () => {
  it('sends emergencies only to the emergency department, maternity visits only to a maternity', () => {
    expect(admissionTypesFor('emergency')).toEqual(['emergency']);
    for (const kind of DEPARTMENT_KINDS) {
      expect(admissionTypesFor(kind).includes('maternity'), kind).toBe(kind === 'maternity');
      expect(admissionTypesFor(kind).includes('outpatient'), kind).toBe(
        ['maternity', 'clinical', 'surgery', 'pediatrics'].includes(kind),
      );
    }
  });

  it('gives no visits to the laboratory, imaging, pharmacy, billing and administration', () => {
    for (const kind of ['laboratory', 'imaging', 'pharmacy', 'billing', 'administration'])
      expect(admissionTypesFor(kind)).toEqual([]);
  });

  // Issue 37: "Caisse" (kind billing) was offered as an admission department.
  it('says which departments receive patients: the clinical ones, never the cash desk', () => {
    expect(DEPARTMENT_KINDS.filter(receivesPatients)).toEqual(
      DEPARTMENT_KINDS.filter((k) =>
        ['clinical', 'emergency', 'maternity', 'surgery', 'pediatrics'].includes(k),
      ),
    );
    expect(receivesPatients('billing')).toBe(false);
  });

  it('names every department kind', () => {
    expect(Object.keys(ADMISSION_TYPES_BY_DEPARTMENT_KIND).sort()).toEqual([...DEPARTMENT_KINDS].sort());
  });
});
