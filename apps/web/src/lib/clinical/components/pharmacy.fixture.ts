/** Answers of the pharmacy API for the tests (shapes of @greensen/shared/contracts/pharmacy). */
import type {
  TLot,
  TMedicationDetail,
  TPrescription,
  TPresentation,
  TStockItem,
} from '@greensen/shared/contracts/pharmacy';

export const PATIENT = {
  id: '0190f0f0-7777-7222-8333-444455550001',
  record_number: 'HGG-000123',
  full_name: 'Bénédicte Ngalula',
  sex: 'F' as const,
  age: 34,
  allergies: ['Pénicilline'],
  allergies_recorded: true,
};
export const CONSULTATION = '0190f0f0-8888-7222-8333-444455550001';
export const PHARMACY = {
  id: '0190f0f0-9999-7222-8333-444455550001',
  code: 'PHA',
  name: 'Pharmacie centrale',
  kind: 'pharmacy',
};
export const PHARMACY_2 = {
  id: '0190f0f0-9999-7222-8333-444455550002',
  code: 'PHU',
  name: 'Pharmacie des urgences',
  kind: 'pharmacy',
};
export const PRESCRIPTION_ID = '0190f0f0-aaaa-7222-8333-444455550001';
export const LINE_ID = '0190f0f0-bbbb-7222-8333-444455550001';
const PRESCRIBER = { id: '0190f0f0-6666-7222-8333-444455550001', full_name: 'Awa Diop' };

export function presentation(over: Partial<TPresentation> = {}): TPresentation {
  return {
    id: '0190f0f0-cccc-7222-8333-444455550001',
    form: 'capsule',
    strength: '500 mg',
    route: 'oral',
    unit: 'capsule',
    paediatric: false,
    is_active: true,
    ...over,
  };
}
export const AMOX_CAPS = presentation();
export const AMOX_SUSP = presentation({
  id: '0190f0f0-cccc-7222-8333-444455550002',
  form: 'oral_suspension',
  strength: '250 mg/5 mL',
  unit: 'bottle',
  paediatric: true,
});

export function amoxicillin(over: Partial<TMedicationDetail> = {}): TMedicationDetail {
  return {
    id: '0190f0f0-dddd-7222-8333-444455550001',
    inn_fr: 'Amoxicilline',
    inn_en: 'Amoxicillin',
    atc_code: 'J01CA04',
    group_fr: 'Antibiotiques',
    group_en: 'Antibiotics',
    brands: ['Clamoxyl'],
    allergy_classes: ['penicillins', 'beta_lactams'],
    essential: true,
    presentations: [AMOX_CAPS, AMOX_SUSP],
    stock: [],
    recent_movements: [],
    ...over,
  };
}

export function prescription(over: Partial<TPrescription> = {}): TPrescription {
  const med = amoxicillin();
  return {
    id: PRESCRIPTION_ID,
    number: 'ORD-HGG-2026-000123',
    status: 'partially_dispensed',
    patient: PATIENT,
    prescriber: PRESCRIBER,
    department: {
      id: '0190f0f0-2222-7222-8333-444455550001',
      code: 'MED',
      name: 'Médecine interne',
      kind: 'clinical',
    },
    consultation: CONSULTATION,
    hospitalization: null,
    weight_kg: 62,
    notes: null,
    lines: [
      {
        id: LINE_ID,
        medication: { id: med.id, inn_fr: med.inn_fr, inn_en: med.inn_en, atc_code: med.atc_code },
        presentation: AMOX_CAPS,
        dose: 1,
        dose_unit: 'capsule',
        route: 'oral',
        frequency: { kind: 'times_per_day', times: 3 },
        duration_days: 3,
        quantity: 10,
        dispensed_quantity: 4,
        instructions: 'Pendant le repas',
        allergy_override_reason: 'Éruption ancienne, bénéfice supérieur au risque',
        refusal: null,
      },
    ],
    warnings: [],
    version: 3,
    created_at: '2026-03-01T08:00:00Z',
    signed_at: '2026-03-01T08:05:00Z',
    cancelled_at: null,
    cancel_reason: null,
    can: { edit: false, sign: false, cancel: true, dispense: true },
    ...over,
  };
}

export function lot(over: Partial<TLot> = {}): TLot {
  const med = amoxicillin();
  return {
    id: '0190f0f0-eeee-7222-8333-444455550001',
    pharmacy: PHARMACY,
    medication: { id: med.id, inn_fr: med.inn_fr, inn_en: med.inn_en },
    presentation: AMOX_CAPS,
    lot_number: 'L-A',
    expiry_date: '2099-03-31',
    on_hand: 3,
    unit_cost: 120,
    expired: false,
    ...over,
  };
}

export function stockItem(over: Partial<TStockItem> = {}): TStockItem {
  const med = amoxicillin();
  return {
    pharmacy: PHARMACY,
    medication: { id: med.id, inn_fr: med.inn_fr, inn_en: med.inn_en, atc_code: med.atc_code },
    presentation: AMOX_CAPS,
    on_hand: 40,
    lots: 2,
    nearest_expiry: '2099-03-31',
    reorder_level: 20,
    flags: [],
    ...over,
  };
}

export const pageOf = <T>(results: T[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });
