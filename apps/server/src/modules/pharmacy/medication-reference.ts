// SQL outside a repository: the start-up loader of the shipped medication reference (its upsert is the load).
/**
 * The medication reference shipped with the product (`data/medications.tsv`): the essential medicines our
 * hospitals use, with French and English INN, ATC code, therapeutic group, allergy classes, brands and
 * presentations. Written for Greensen from general pharmacological knowledge (INN names and ATC codes are
 * facts); no text of the WHO Model List is copied (docs/decisions/0022-pharmacy-roles.md).
 *
 * `ensureMedicationReference` loads it on every start (production too), like the exam catalogue: an idempotent
 * upsert on the stable codes, skipped after one query when the stored hash matches the file.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOSAGE_FORMS, ROUTES } from '@greensen/shared/contracts/pharmacy';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { medicationPresentations, medications } from '../../db/schema/index.js';
import { shippedFileHash } from '../../lib/shipped-file.js';
import { readSetting, writeSetting } from '../system/settings.repository.js';

export const MEDICATIONS_TSV_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../src/modules/pharmacy/data/medications.tsv',
);
export const MEDICATIONS_HASH_SETTING = 'medications.reference_sha256';
const LOADER_VERSION = '1';
const LOAD_LOCK_ID = 7_261_339;

/** Therapeutic groups of the shipped reference, in both languages. */
export const MEDICATION_GROUPS: Readonly<Record<string, { fr: string; en: string }>> = {
  antimalarials: { fr: 'Antipaludiques', en: 'Antimalarials' },
  antibacterials: { fr: 'Antibiotiques', en: 'Antibacterials' },
  antifungals: { fr: 'Antifongiques', en: 'Antifungals' },
  antiretrovirals: { fr: 'Antirétroviraux', en: 'Antiretrovirals' },
  antivirals: { fr: 'Antiviraux', en: 'Antivirals' },
  antituberculosis: { fr: 'Antituberculeux', en: 'Antituberculosis medicines' },
  anthelmintics: { fr: 'Anthelminthiques', en: 'Anthelmintics' },
  obstetrics: { fr: 'Obstétrique', en: 'Obstetrics' },
  contraceptives: { fr: 'Contraceptifs', en: 'Contraceptives' },
  blood: { fr: 'Sang et hématologie', en: 'Blood and haematology' },
  analgesics: { fr: 'Antalgiques et anti-inflammatoires', en: 'Analgesics and anti-inflammatories' },
  anaesthetics: { fr: 'Anesthésie', en: 'Anaesthesia' },
  fluids: { fr: 'Solutés et électrolytes', en: 'IV fluids and electrolytes' },
  rehydration: { fr: 'Réhydratation orale', en: 'Oral rehydration' },
  respiratory: { fr: 'Voies respiratoires', en: 'Respiratory tract' },
  corticosteroids: { fr: 'Corticoïdes', en: 'Corticosteroids' },
  emergency: { fr: 'Urgences et réanimation', en: 'Emergency and resuscitation' },
  antidotes: { fr: 'Antidotes', en: 'Antidotes' },
  immunologicals: { fr: 'Sérums, vaccins et immunoglobulines', en: 'Sera, vaccines and immunoglobulins' },
  diabetes: { fr: 'Diabète', en: 'Diabetes' },
  endocrine: { fr: 'Endocrinologie', en: 'Endocrinology' },
  cardiovascular: { fr: 'Cardiovasculaire', en: 'Cardiovascular' },
  neurology: { fr: 'Neurologie', en: 'Neurology' },
  psychiatry: { fr: 'Psychiatrie', en: 'Psychiatry' },
  gastroenterology: { fr: 'Gastro-entérologie', en: 'Gastroenterology' },
  vitamins: { fr: 'Vitamines et nutrition', en: 'Vitamins and nutrition' },
  dermatology: { fr: 'Dermatologie et antiseptiques', en: 'Dermatology and antiseptics' },
  ophthalmology: { fr: 'Ophtalmologie', en: 'Ophthalmology' },
  antihistamines: { fr: 'Antihistaminiques', en: 'Antihistamines' },
};

export type DosageForm = (typeof DOSAGE_FORMS)[number];
export type Route = (typeof ROUTES)[number];

export interface PresentationRow {
  code: string;
  form: DosageForm;
  strength: string;
  route: Route;
  unit: string;
  paediatric: boolean;
}

export interface MedicationRow {
  code: string;
  innFr: string;
  innEn: string;
  atcCode: string | null;
  groupFr: string;
  groupEn: string;
  brands: string[];
  allergyClasses: string[];
  essential: boolean;
  presentations: PresentationRow[];
}

const ATC = /^[A-Z](\d{2}([A-Z]([A-Z](\d{2})?)?)?)?$/;
export const isAtcCode = (s: string) => ATC.test(s);
const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** `paracetamol:tablet:500 mg`: the stable key of a presentation. */
export const presentationCode = (medication: string, form: string, strength: string, route: string) =>
  `${medication}:${form}:${route}:${strength.toLowerCase().replace(/\s+/g, ' ').trim()}`;

/**
 * Presentations written `form|strength|route|unit[|p]` separated by `;` (`p`: paediatric). Throws with the
 * reason on a malformed one.
 */
export function parsePresentations(medication: string, text: string): PresentationRow[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [form, strength, route, unit, flag] = item.split('|').map((x) => x.trim());
      if (!DOSAGE_FORMS.includes(form as DosageForm)) throw new Error(`unknown dosage form "${form}"`);
      if (!ROUTES.includes(route as Route)) throw new Error(`unknown route "${route}"`);
      if (!strength || !unit) throw new Error(`presentation "${item}" needs a strength and a unit`);
      if (flag && flag !== 'p') throw new Error(`unknown presentation flag "${flag}"`);
      return {
        code: presentationCode(medication, form!, strength, route!),
        form: form as DosageForm,
        strength,
        route: route as Route,
        unit: unit.toLowerCase(),
        paediatric: flag === 'p',
      };
    });
}

/** The shipped TSV (header; code, inn_fr, inn_en, atc_code, group, allergy_classes, brands, presentations). */
export function parseReferenceTsv(text: string): MedicationRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const expected = 'code\tinn_fr\tinn_en\tatc_code\tgroup\tallergy_classes\tbrands\tpresentations';
  if (lines[0] !== expected) throw new Error('medications.tsv: unexpected header');
  const rows: MedicationRow[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const [code, fr, en, atc, group, classes, brands, presentations] = line.split('\t');
    const g = MEDICATION_GROUPS[group ?? ''];
    if (!code || !fr || !en || !g || seen.has(code) || (atc && !isAtcCode(atc)))
      throw new Error(`medications.tsv line ${i + 1}: malformed`);
    seen.add(code);
    rows.push({
      code,
      innFr: fr,
      innEn: en,
      atcCode: atc || null,
      groupFr: g.fr,
      groupEn: g.en,
      brands: list(brands),
      allergyClasses: list(classes),
      essential: true,
      presentations: parsePresentations(code, presentations ?? ''),
    });
  }
  return rows;
}

let shipped: { rows: MedicationRow[]; hash: string } | undefined;

/** The shipped file's hash alone, without parsing it (lib/shipped-file.ts). */
export function shippedReferenceHash(): string {
  return shippedFileHash(MEDICATIONS_TSV_PATH, LOADER_VERSION);
}

export function shippedReference(): { rows: MedicationRow[]; hash: string } {
  shipped ??= {
    rows: parseReferenceTsv(readFileSync(MEDICATIONS_TSV_PATH, 'utf8')),
    hash: shippedReferenceHash(),
  };
  return shipped;
}

/** The text the trigram index searches: both INNs, the ATC code and the brands. */
export const searchTextOf = (m: Pick<MedicationRow, 'innFr' | 'innEn' | 'atcCode' | 'brands'>) =>
  [m.innFr, m.innEn, m.atcCode ?? '', ...m.brands].join(' ').replace(/\s+/g, ' ').trim();

/**
 * Upserts medicines and their presentations on their codes (one statement per table per batch). For the shipped
 * reference, presentations of these medicines that it no longer lists are deactivated (prescriptions and lots
 * keep pointing at them).
 */
export async function upsertMedications(q: Queryable, rows: MedicationRow[], source: 'shipped' | 'imported') {
  // An imported list adds presentations; only the shipped reference retires the ones it no longer lists.
  const retire = source === 'shipped';
  for (let i = 0; i < rows.length; i += 200) {
    const batch = rows.slice(i, i + 200);
    const ids = await q
      .insert(medications)
      .values(
        batch.map((m) => ({
          code: m.code,
          innFr: m.innFr,
          innEn: m.innEn,
          atcCode: m.atcCode,
          groupFr: m.groupFr,
          groupEn: m.groupEn,
          brands: m.brands,
          allergyClasses: m.allergyClasses,
          essential: m.essential,
          searchText: searchTextOf(m),
          source,
          isActive: true,
        })),
      )
      .onConflictDoUpdate({
        target: medications.code,
        set: {
          innFr: sql`excluded.inn_fr`,
          innEn: sql`excluded.inn_en`,
          atcCode: sql`excluded.atc_code`,
          groupFr: sql`excluded.group_fr`,
          groupEn: sql`excluded.group_en`,
          brands: sql`excluded.brands`,
          allergyClasses: sql`excluded.allergy_classes`,
          essential: sql`excluded.essential`,
          searchText: sql`excluded.search_text`,
          isActive: sql`true`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: medications.id, code: medications.code });
    const idOf = new Map(ids.map((r) => [r.code, r.id]));
    const presentations = batch.flatMap((m) =>
      m.presentations.map((p, n) => ({ ...p, medicationId: idOf.get(m.code)!, sortOrder: n + 1 })),
    );
    if (presentations.length)
      await q
        .insert(medicationPresentations)
        .values(presentations.map((p) => ({ ...p, isActive: true })))
        .onConflictDoUpdate({
          target: medicationPresentations.code,
          set: {
            medicationId: sql`excluded.medication_id`,
            form: sql`excluded.form`,
            strength: sql`excluded.strength`,
            route: sql`excluded.route`,
            unit: sql`excluded.unit`,
            paediatric: sql`excluded.paediatric`,
            isActive: sql`true`,
            sortOrder: sql`excluded.sort_order`,
          },
        });
    const kept = presentations.map((p) => p.code);
    if (retire)
      await q
        .update(medicationPresentations)
        .set({ isActive: false })
        .where(
          and(
            inArray(medicationPresentations.medicationId, [...idOf.values()]),
            eq(medicationPresentations.isActive, true),
            ...(kept.length ? [notInArray(medicationPresentations.code, kept)] : []),
          ),
        );
  }
}

/** Makes sure the shipped reference is loaded (one query when unchanged), under an advisory lock. */
export async function ensureMedicationReference(db: Queryable): Promise<boolean> {
  const hash = shippedReferenceHash();
  if ((await readSetting(db, MEDICATIONS_HASH_SETTING)) === hash) return false;
  const { rows } = shippedReference();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOAD_LOCK_ID})`);
    if ((await readSetting(tx, MEDICATIONS_HASH_SETTING)) === hash) return false;
    await upsertMedications(tx, rows, 'shipped');
    await writeSetting(tx, MEDICATIONS_HASH_SETTING, hash, null);
    return true;
  });
}
