import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import { describe, expect, it } from 'vitest';
import { shippedReference } from '../pharmacy/medication-reference.js';
import { shippedSafetyData } from './safety.data.js';
import {
  amountPerAdministration,
  evaluate,
  parseStrength,
  type SafetyLine,
  type SafetyMed,
  type SafetyPatient,
  statDoseTimes,
  timingOf,
} from './safety.rules.js';

const data = shippedSafetyData();
const limitsOf = (code: string) => data.limits.get(code) ?? [];
const reference = shippedReference().rows;

/** A medicine of the shipped reference with one of its presentations (by strength, else the first). */
function med(code: string, strength?: string): SafetyMed {
  const m = reference.find((r) => r.code === code);
  if (!m) throw new Error(code);
  const p =
    m.presentations.find((x) => strength === undefined || x.strength === strength) ?? m.presentations[0]!;
  return {
    medicationId: `id-${code}`,
    code,
    innFr: m.innFr,
    innEn: m.innEn,
    atcCode: m.atcCode,
    allergyClasses: m.allergyClasses,
    strength: p.strength,
    unit: p.unit,
    paediatric: p.paediatric,
  };
}

let n = 0;
function line(
  m: SafetyMed,
  dose: number,
  doseUnit: string,
  frequency: TFrequency,
  extra: Partial<SafetyLine> = {},
): SafetyLine {
  return {
    index: n++,
    lineId: null,
    own: true,
    prescriptionNumber: null,
    med: m,
    dose,
    doseUnit,
    route: 'oral',
    frequency,
    ...extra,
  };
}
const adult: SafetyPatient = {
  ageYears: 40,
  weightKg: 62.5,
  allergies: [],
  allergyState: 'none_known',
  pregnant: false,
};
const codes = (alerts: { code: string }[]) => alerts.map((a) => a.code);
const tds = { kind: 'times_per_day', times: 3 } as const;

describe('strengths and amounts', () => {
  it('reads the strengths of the reference', () => {
    expect(parseStrength('500 mg')).toEqual({
      components: [{ amount: 500, unit: 'mg' }],
      perVolume: null,
      container: null,
    });
    expect(parseStrength('250 mg/5 mL (100 mL)')).toMatchObject({ perVolume: 5, container: 100 });
    expect(parseStrength('300 mg/mL (2 mL)')).toMatchObject({
      components: [{ amount: 300 }],
      perVolume: 1,
      container: 2,
    });
    expect(parseStrength('100 000 UI/mL (30 mL)').components[0]).toEqual({ amount: 100000, unit: 'UI' });
    expect(parseStrength('1 % (20 mL)')).toMatchObject({
      components: [{ amount: 10, unit: 'mg' }],
      perVolume: 1,
    });
    expect(parseStrength('500 mg/30 mg').components.map((c) => c.amount)).toEqual([500, 30]);
  });
  it('converts a dose to the limit unit: tablets, mg, g, mL, ampoules, a combination component', () => {
    const mg = { component: 0, unit: 'mg' };
    expect(
      amountPerAdministration({ dose: 2, doseUnit: 'comprimés' }, { strength: '500 mg', unit: 'tablet' }, mg),
    ).toBe(1000);
    expect(
      amountPerAdministration({ dose: 1, doseUnit: 'g' }, { strength: '500 mg', unit: 'tablet' }, mg),
    ).toBe(1000);
    expect(
      amountPerAdministration(
        { dose: 10, doseUnit: 'mL' },
        { strength: '120 mg/5 mL (100 mL)', unit: 'bottle' },
        mg,
      ),
    ).toBe(240);
    expect(
      amountPerAdministration(
        { dose: 1, doseUnit: 'ampoule' },
        { strength: '40 mg/mL (2 mL)', unit: 'ampoule' },
        mg,
      ),
    ).toBe(80);
    expect(
      amountPerAdministration(
        { dose: 2, doseUnit: 'cp' },
        { strength: '500 mg/30 mg', unit: 'tablet' },
        { component: 1, unit: 'mg' },
      ),
    ).toBe(60);
    expect(
      amountPerAdministration(
        { dose: 1, doseUnit: 'flacon' },
        { strength: '120 mg/5 mL (100 mL)', unit: 'bottle' },
        mg,
      ),
    ).toBeNull();
    expect(
      amountPerAdministration(
        { dose: 2, doseUnit: 'MUI' },
        { strength: '1 MUI (600 mg)', unit: 'vial' },
        { component: 0, unit: 'MUI' },
      ),
    ).toBe(2);
  });
});

describe('dose limits data', () => {
  it('has a row (a limit, or no limit with its reason) with a source for every medicine of the reference', () => {
    const missing = reference.filter((m) => !data.limits.has(m.code)).map((m) => m.code);
    expect(missing).toEqual([]);
    for (const rows of data.limits.values())
      for (const r of rows) {
        expect(r.source).not.toBe('');
        expect(reference.some((m) => m.code === r.medication)).toBe(true);
        const limited = [r.adultDose, r.adultDay, r.kgDose, r.kgDay].some((v) => v !== null);
        expect(limited || Boolean(r.noLimit)).toBe(true);
      }
  });
});

describe('dose rules', () => {
  it('12 g a day of paracetamol for a 62.5 kg adult (4 × 500 mg six times a day) is blocking', () => {
    const alerts = evaluate(data, limitsOf, adult, [
      line(med('paracetamol', '500 mg'), 4, 'comprimé', { kind: 'times_per_day', times: 6 }),
    ]);
    const daily = alerts.find((a) => a.code === 'dose_daily_max');
    expect(daily).toMatchObject({
      severity: 'blocking',
      details: { value: 12000, limit: 4000, unit: 'mg', per: 'day' },
    });
    expect(alerts.find((a) => a.code === 'dose_single_max')?.details).toMatchObject({
      value: 2000,
      limit: 1000,
    });
  });
  it('1 g four times a day for an adult passes', () => {
    const alerts = evaluate(data, limitsOf, adult, [
      line(med('paracetamol', '1 g'), 1, 'comprimé', { kind: 'times_per_day', times: 4 }),
    ]);
    expect(codes(alerts)).toEqual([]);
  });
  it('a 10 kg child prescribed an adult dose: mg/kg per dose and per day', () => {
    const child = { ...adult, ageYears: 1, weightKg: 10 };
    const alerts = evaluate(data, limitsOf, child, [
      line(med('paracetamol', '1 g'), 1, 'comprimé', { kind: 'times_per_day', times: 4 }),
    ]);
    const perKg = alerts.filter((a) => a.code === 'dose_mg_per_kg');
    expect(perKg.map((a) => [a.details.per, a.details.value, a.details.limit])).toEqual([
      ['dose', 100, 15],
      ['day', 400, 60],
    ]);
    expect(perKg.every((a) => a.severity === 'blocking')).toBe(true);
  });
  it('a child without a weight: weight required', () => {
    const alerts = evaluate(data, limitsOf, { ...adult, ageYears: 3, weightKg: null }, [
      line(med('amoxicillin', '250 mg'), 1, 'gélule', tds),
    ]);
    expect(alerts.find((a) => a.code === 'weight_required')?.severity).toBe('blocking');
  });
  it('sums paracetamol alone and in a combination over 24 hours', () => {
    const alerts = evaluate(data, limitsOf, adult, [
      line(med('paracetamol', '1 g'), 1, 'comprimé', { kind: 'times_per_day', times: 3 }),
      line(med('paracetamol-codeine'), 2, 'comprimés', { kind: 'times_per_day', times: 3 }),
    ]);
    const daily = alerts.filter((a) => a.code === 'dose_daily_max');
    expect(daily).toHaveLength(1);
    expect(daily[0]!.details).toMatchObject({
      value: 6000,
      limit: 4000,
      other_medication: 'paracétamol + codéine',
    });
    expect(codes(alerts)).toContain('duplicate_substance');
  });
  it('counts a line of another active prescription in the 24-hour total', () => {
    const other = line(
      med('paracetamol', '1 g'),
      1,
      'comprimé',
      { kind: 'times_per_day', times: 3 },
      { own: false, prescriptionNumber: 'ORD-1' },
    );
    const alerts = evaluate(data, limitsOf, adult, [
      other,
      line(med('paracetamol', '500 mg'), 1, 'comprimé', { kind: 'times_per_day', times: 3 }),
    ]);
    expect(alerts.find((a) => a.code === 'dose_daily_max')?.details.value).toBe(4500);
    expect(alerts.find((a) => a.code === 'duplicate_substance')?.details.other_prescription).toBe('ORD-1');
  });
  it('a dose in a unit that cannot be converted is an information, not silence', () => {
    const alerts = evaluate(data, limitsOf, adult, [
      line(med('paracetamol', '120 mg/5 mL (100 mL)'), 1, 'flacon', tds),
    ]);
    expect(alerts.map((a) => [a.code, a.severity])).toEqual([['dose_unverifiable', 'info']]);
  });
});

describe('allergies', () => {
  const withAllergy = (text: string): SafetyPatient => ({
    ...adult,
    allergies: [{ text, source: 'consultation' }],
    allergyState: 'recorded',
  });
  it('a penicillin allergy catches amoxicillin, ampicillin, amoxicillin-clavulanic acid and benzylpenicillin', () => {
    for (const code of ['amoxicillin', 'ampicillin', 'amoxicillin-clavulanic-acid', 'benzylpenicillin']) {
      const alerts = evaluate(data, limitsOf, withAllergy('Pénicilline'), [line(med(code), 1, 'g', tds)]);
      expect(
        alerts.find((a) => a.code === 'allergy_class' || a.code === 'allergy'),
        code,
      ).toMatchObject({
        severity: 'blocking',
        details: { allergy: 'Pénicilline', allergy_source: 'consultation' },
      });
    }
  });
  it('the substance itself is an allergy alert', () => {
    const alerts = evaluate(data, limitsOf, withAllergy('amoxicilline'), [
      line(med('amoxicillin', '500 mg'), 1, 'gélule', tds),
    ]);
    expect(alerts[0]).toMatchObject({ code: 'allergy', severity: 'blocking' });
  });
  it('a cephalosporin after a penicillin allergy is a warning', () => {
    const alerts = evaluate(data, limitsOf, withAllergy('pénicilline'), [
      line(med('ceftriaxone', '1 g'), 1, 'g', { kind: 'times_per_day', times: 1 }, { route: 'iv' }),
    ]);
    expect(alerts.map((a) => [a.code, a.severity])).toEqual([['allergy_cross_reactivity', 'warning']]);
  });
  it('sulfonamides, and aspirin to the NSAIDs', () => {
    expect(
      codes(
        evaluate(data, limitsOf, withAllergy('sulfamides'), [
          line(med('cotrimoxazole', '800 mg/160 mg'), 1, 'cp', { kind: 'times_per_day', times: 2 }),
        ]),
      ),
    ).toContain('allergy_class');
    expect(
      codes(
        evaluate(data, limitsOf, withAllergy('Aspirine'), [line(med('ibuprofen', '400 mg'), 1, 'cp', tds)]),
      ),
    ).toContain('allergy_class');
    expect(
      codes(evaluate(data, limitsOf, withAllergy('AINS'), [line(med('metamizole', '500 mg'), 1, 'cp', tds)])),
    ).toContain('allergy_cross_reactivity');
  });
  it('never asked is a warning of its own; none known says nothing', () => {
    const l = line(med('paracetamol', '500 mg'), 1, 'cp', tds);
    expect(
      evaluate(data, limitsOf, { ...adult, allergyState: 'not_asked' }, [l]).map((a) => [
        a.code,
        a.severity,
        a.line,
      ]),
    ).toEqual([['allergies_not_recorded', 'warning', null]]);
    expect(evaluate(data, limitsOf, adult, [l])).toEqual([]);
  });
});

describe('duplicates, interactions, pregnancy', () => {
  it('two medicines of the same ATC level 4 are a duplicate class', () => {
    const alerts = evaluate(data, limitsOf, adult, [
      line(med('ceftriaxone', '1 g'), 1, 'g', { kind: 'times_per_day', times: 1 }, { route: 'iv' }),
      line(med('cefotaxime', '1 g'), 1, 'g', tds, { route: 'iv' }),
    ]);
    expect(alerts.map((a) => [a.code, a.line?.med.code, a.details.other_medication])).toEqual([
      ['duplicate_class', 'cefotaxime', 'ceftriaxone'],
    ]);
  });
  it('finds every listed interaction, both ways, at its severity', () => {
    const fake = (m: { kind: string; value: string }, id: string): SafetyMed => ({
      medicationId: id,
      code: id,
      innFr: m.value,
      innEn: m.kind === 'inn' ? m.value : `x${id}`,
      atcCode: m.kind === 'atc' ? `${m.value}01` : null,
      allergyClasses: m.kind === 'class' ? [m.value] : [],
      strength: '1 mg',
      unit: 'tablet',
      paediatric: false,
    });
    expect(data.interactions.length).toBeGreaterThanOrEqual(30);
    for (const row of data.interactions) {
      const a = line(fake(row.a, 'a'), 1, 'cp', tds);
      const b = line(fake(row.b, 'b'), 1, 'cp', tds);
      for (const lines of [
        [a, b],
        [b, a],
      ]) {
        const found = evaluate(data, limitsOf, adult, lines).filter((x) => x.code === 'interaction');
        expect(
          found.map((x) => x.severity),
          `${row.a.value} + ${row.b.value}`,
        ).toEqual([row.severity]);
        expect(found[0]!.advice?.fr).toBe(row.advice.fr);
        expect(found[0]!.details.source).toBe(row.source);
      }
    }
  });
  it('the named interactions of the issue are in the data, with the reference medicines', () => {
    const pairsOf = (x: string, y: string) =>
      evaluate(data, limitsOf, adult, [line(med(x), 1, 'cp', tds), line(med(y), 1, 'cp', tds)]).filter(
        (a) => a.code === 'interaction',
      );
    expect(pairsOf('warfarin', 'ibuprofen')[0]?.severity).toBe('blocking');
    expect(pairsOf('warfarin', 'acetylsalicylic-acid')[0]?.severity).toBe('blocking');
    expect(pairsOf('rifampicin', 'nevirapine')[0]?.severity).toBe('blocking');
    expect(pairsOf('rhze', 'lopinavir-ritonavir')[0]?.severity).toBe('blocking');
    expect(pairsOf('rifampicin', 'atazanavir-ritonavir')[0]?.severity).toBe('blocking');
    expect(pairsOf('rifampicin', 'ethinylestradiol-levonorgestrel')[0]?.severity).toBe('warning');
    expect(pairsOf('artemether-lumefantrine', 'quinine')[0]?.severity).toBe('warning');
    expect(pairsOf('potassium-chloride', 'spironolactone')[0]?.severity).toBe('blocking');
  });
  it('a medicine contraindicated in pregnancy is blocking for a pregnant patient, silent otherwise', () => {
    const l = line(med('warfarin', '5 mg'), 1, 'cp', { kind: 'times_per_day', times: 1 });
    expect(
      evaluate(data, limitsOf, { ...adult, pregnant: true }, [l]).map((a) => [a.code, a.severity]),
    ).toEqual([['pregnancy', 'blocking']]);
    expect(evaluate(data, limitsOf, adult, [l])).toEqual([]);
  });
});

describe('timing and stat doses', () => {
  it('flags a dose given more than 60 minutes before or after its time', () => {
    const at = new Date('2026-12-06T08:00:00Z');
    expect(timingOf(at, new Date('2026-12-06T08:59:00Z')).timing).toBe('on_time');
    expect(timingOf(at, new Date('2026-12-06T09:01:00Z'))).toEqual({ timing: 'late', minutesOff: 61 });
    expect(timingOf(at, new Date('2026-12-06T06:30:00Z'))).toEqual({ timing: 'early', minutesOff: -90 });
  });
  it('times the following doses from the stat dose by the frequency', () => {
    const first = new Date('2026-12-06T14:23:00Z');
    const times = statDoseTimes(
      { kind: 'times_per_day', times: 3 },
      first,
      1,
      new Date('2026-12-06T00:00:00Z'),
      new Date('2026-12-08T00:00:00Z'),
    );
    expect(times.map((t) => t.toISOString())).toEqual([
      '2026-12-06T14:23:00.000Z',
      '2026-12-06T22:23:00.000Z',
      '2026-12-07T06:23:00.000Z',
    ]);
    expect(statDoseTimes({ kind: 'once' }, first, null, first, new Date('2026-12-07T00:00:00Z'))).toEqual([
      first,
    ]);
  });
});
