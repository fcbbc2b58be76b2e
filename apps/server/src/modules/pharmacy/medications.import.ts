/**
 * Import of a national essential medicines list (`npm run medications:import -- <file>`, `node
 * apps/server/dist/cli.js import-medications <file>`): CSV or TSV (delimiter from the header line). Columns, by
 * header name (accents and case ignored): `inn_fr` (or `dci`, `dci_fr`), `inn_en` (or `inn`, `dci_en`), `atc_code`
 * (or `atc`), `group_fr`, `group_en` (or `group`: a group key of the shipped reference), `allergy_classes`,
 * `brands` (comma-separated), `essential` (1/0, oui/non), `code` (optional, else made from the INN); and the
 * presentations either in one `presentations` column (`form|strength|route|unit[|p]` separated by `;`) or one
 * per line in `form`, `strength`, `route`, `unit`, `paediatric` columns (lines of the same medicine add up).
 * Existing medicines (same code) are updated; one transaction; the report counts inserted, updated, unchanged
 * and rejected lines with their reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { medicationPresentations, medications } from '../../db/schema/index.js';
import { detectDelimiter, parseDelimited } from '../icd10/icd10.import.js';
import {
  isAtcCode,
  MEDICATION_GROUPS,
  type MedicationRow,
  parsePresentations,
  upsertMedications,
} from './medication-reference.js';
import { fold } from './pharmacy.rules.js';

export class MedicationImportRefused extends Error {}

export interface MedicationImportReport {
  lines: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; reason: string }[];
}

const ALIASES = {
  code: ['code'],
  fr: ['inn_fr', 'dci', 'dci_fr', 'nom_fr'],
  en: ['inn_en', 'inn', 'dci_en', 'name_en'],
  atc: ['atc_code', 'atc', 'code_atc'],
  groupFr: ['group_fr', 'groupe', 'groupe_fr', 'classe'],
  groupEn: ['group_en'],
  group: ['group'],
  classes: ['allergy_classes', 'classes_allergie'],
  brands: ['brands', 'marques', 'noms_commerciaux'],
  essential: ['essential', 'essentiel'],
  presentations: ['presentations'],
  form: ['form', 'forme'],
  strength: ['strength', 'dosage'],
  route: ['route', 'voie'],
  unit: ['unit', 'unite'],
  paediatric: ['paediatric', 'pediatrique', 'pediatric'],
} as const;

const header = (h: string) => fold(h).replace(/[\s-]+/g, '_');
const slug = (s: string) =>
  fold(s)
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
const yes = (s: string) => ['1', 'true', 'oui', 'yes', 'o', 'y', 'p'].includes(fold(s));

export async function importMedicationsFile(db: Db, path: string): Promise<MedicationImportReport> {
  if (!existsSync(path)) throw new MedicationImportRefused(`File not found: ${path}`);
  return importMedicationsText(db, readFileSync(path, 'utf8'));
}

export async function importMedicationsText(db: Db, input: string): Promise<MedicationImportReport> {
  const text = input.replace(/^\uFEFF/, '');
  const records = parseDelimited(text, detectDelimiter(text.split(/\r?\n/, 1)[0] ?? ''));
  const head = (records.shift()?.fields ?? []).map(header);
  const col = (key: keyof typeof ALIASES) => {
    const i = head.findIndex((h) => (ALIASES[key] as readonly string[]).includes(h));
    return i < 0 ? null : i;
  };
  const cols = Object.fromEntries(Object.keys(ALIASES).map((k) => [k, col(k as keyof typeof ALIASES)])) as {
    [K in keyof typeof ALIASES]: number | null;
  };
  if (cols.fr === null && cols.en === null)
    throw new MedicationImportRefused('The header must name the INN column ("inn_fr"/"dci" or "inn_en").');
  if (cols.presentations === null && (cols.form === null || cols.strength === null || cols.route === null))
    throw new MedicationImportRefused(
      'The header must name a "presentations" column, or "form", "strength", "route" and "unit" columns.',
    );

  const report: MedicationImportReport = { lines: 0, inserted: 0, updated: 0, unchanged: 0, rejected: [] };
  const cell = (f: string[], i: number | null) => (i === null ? '' : (f[i] ?? '').trim());
  const byCode = new Map<string, { row: MedicationRow; lines: number[] }>();
  for (const { line, fields } of records) {
    if (fields.every((f) => !f.trim())) continue;
    report.lines++;
    const reject = (reason: string) => report.rejected.push({ line, reason });
    const fr = cell(fields, cols.fr);
    const en = cell(fields, cols.en);
    if (!fr && !en) {
      reject('no INN');
      continue;
    }
    if (fr.length > 200 || en.length > 200) {
      reject('INN longer than 200 characters');
      continue;
    }
    const atc = cell(fields, cols.atc).toUpperCase().replace(/\s+/g, '');
    if (atc && !isAtcCode(atc)) {
      reject(`invalid ATC code "${atc}"`);
      continue;
    }
    const key = cell(fields, cols.group);
    const known = MEDICATION_GROUPS[key];
    const groupFr = cell(fields, cols.groupFr) || known?.fr || 'Autres';
    const groupEn = cell(fields, cols.groupEn) || known?.en || 'Other';
    const code = slug(cell(fields, cols.code) || en || fr);
    if (!code) {
      reject('no code can be made of this line');
      continue;
    }
    let presentations: MedicationRow['presentations'];
    try {
      presentations = parsePresentations(
        code,
        cols.presentations !== null
          ? cell(fields, cols.presentations)
          : [
              cell(fields, cols.form),
              cell(fields, cols.strength),
              cell(fields, cols.route),
              cell(fields, cols.unit) || 'unit',
              yes(cell(fields, cols.paediatric)) ? 'p' : '',
            ]
              .join('|')
              .replace(/\|$/, ''),
      );
    } catch (error) {
      reject((error as Error).message);
      continue;
    }
    if (!presentations.length) {
      reject('no presentation');
      continue;
    }
    const list = (i: number | null) =>
      cell(fields, i)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const seen = byCode.get(code);
    if (seen) {
      const codes = new Set(seen.row.presentations.map((p) => p.code));
      seen.row.presentations.push(...presentations.filter((p) => !codes.has(p.code)));
      seen.lines.push(line);
      continue;
    }
    byCode.set(code, {
      lines: [line],
      row: {
        code,
        innFr: fr || en,
        innEn: en || fr,
        atcCode: atc || null,
        groupFr,
        groupEn,
        brands: list(cols.brands),
        allergyClasses: list(cols.classes).map((c) => fold(c).replace(/[\s-]+/g, '_')),
        essential: cols.essential === null ? true : yes(cell(fields, cols.essential)),
        presentations,
      },
    });
  }

  const rows = [...byCode.values()].map((v) => v.row);
  const existing = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < rows.length; i += 500) {
    const codes = rows.slice(i, i + 500).map((r) => r.code);
    const found = await db.select().from(medications).where(inArray(medications.code, codes));
    const pres = await db
      .select({ code: medicationPresentations.code, medicationId: medicationPresentations.medicationId })
      .from(medicationPresentations)
      .where(
        inArray(
          medicationPresentations.medicationId,
          found.map((f) => f.id),
        ),
      );
    for (const f of found)
      existing.set(f.code, {
        ...f,
        presentations: pres
          .filter((p) => p.medicationId === f.id)
          .map((p) => p.code)
          .sort(),
      });
  }
  for (const { row, lines } of byCode.values()) {
    const before = existing.get(row.code);
    if (!before) report.inserted += lines.length;
    else if (
      before.innFr === row.innFr &&
      before.innEn === row.innEn &&
      before.atcCode === row.atcCode &&
      before.groupFr === row.groupFr &&
      before.groupEn === row.groupEn &&
      JSON.stringify(before.presentations) === JSON.stringify(row.presentations.map((p) => p.code).sort())
    )
      report.unchanged += lines.length;
    else report.updated += lines.length;
  }
  report.rejected.sort((a, b) => a.line - b.line);
  if (rows.length) await db.transaction((tx) => upsertMedications(tx, rows, 'imported'));
  return report;
}
