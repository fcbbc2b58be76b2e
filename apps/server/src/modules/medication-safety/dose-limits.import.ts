// SQL outside a repository: a command-line importer (a file's rows in one transaction).
/**
 * A hospital's own dose limits (its formulary or protocol, issue 34): a TSV with the columns of the shipped
 * `pharmacy/data/dose-limits.tsv`, imported by `node dist/cli.js import-dose-limits <HOSPITAL_CODE> <file.tsv>`.
 * The rows of a medicine in the file replace, for this hospital only, the shipped rows of that medicine (all its
 * routes); a medicine absent from the file keeps the shipped limits. Lines naming an unknown medicine, a route or
 * unit Greensen does not know, or without a source are rejected with their reason; the others are written in one
 * transaction.
 */
import { readFile } from 'node:fs/promises';
import { ROUTES } from '@greensen/shared/contracts/pharmacy';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { hospitalDoseLimits, medications } from '../../db/schema/index.js';
import { type DoseLimit, parseTsv, toDoseLimit } from './safety.data.js';

const HEADER =
  'medication\troute\tsubstance\tcomponent\tunit\tadult_dose\tadult_day\tkg_dose\tkg_day\tweight_dosed\tpregnancy\tno_limit\tsource';
const UNITS = ['mg', 'g', 'µg', 'ug', 'mcg', 'UI', 'IU', 'MUI', 'MIU', 'mL'];

export class DoseLimitImportRefused extends Error {}

export async function importDoseLimitsText(db: Db, hospitalCode: string, text: string) {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.split(/\r?\n/)[0]?.trim() !== HEADER)
    throw new DoseLimitImportRefused(`the first line must be the header:\n${HEADER}`);
  const hospital = (
    await db.execute<{ id: string }>(sql`select id from hospitals where code = ${hospitalCode.toUpperCase()}`)
  ).rows[0];
  if (!hospital) throw new DoseLimitImportRefused(`no hospital ${hospitalCode}`);
  const rows = parseTsv(clean);
  const known = new Set((await db.select({ code: medications.code }).from(medications)).map((m) => m.code));
  const rejected: { line: number; reason: string }[] = [];
  const accepted: DoseLimit[] = [];
  rows.forEach((r, i) => {
    try {
      const l = toDoseLimit(r);
      if (!known.has(l.medication)) throw new Error(`unknown medicine ${l.medication}`);
      if (l.route && !(ROUTES as readonly string[]).includes(l.route))
        throw new Error(`unknown route ${l.route}`);
      if (!UNITS.includes(l.unit)) throw new Error(`unknown unit ${l.unit}`);
      accepted.push(l);
    } catch (err) {
      rejected.push({ line: i + 2, reason: (err as Error).message });
    }
  });
  const codes = [...new Set(accepted.map((l) => l.medication))];
  await db.transaction(async (tx) => {
    if (codes.length)
      await tx
        .delete(hospitalDoseLimits)
        .where(
          and(
            eq(hospitalDoseLimits.hospitalId, hospital.id),
            inArray(hospitalDoseLimits.medicationCode, codes),
          ),
        );
    if (accepted.length)
      await tx.insert(hospitalDoseLimits).values(
        accepted.map((l) => ({
          hospitalId: hospital.id,
          medicationCode: l.medication,
          route: l.route,
          substance: l.substance,
          component: l.component,
          unit: l.unit,
          adultDose: l.adultDose,
          adultDay: l.adultDay,
          kgDose: l.kgDose,
          kgDay: l.kgDay,
          weightDosed: l.weightDosed,
          pregnancy: l.pregnancy,
          noLimit: l.noLimit,
          source: l.source,
        })),
      );
  });
  return { lines: rows.length, inserted: accepted.length, updated: 0, unchanged: 0, rejected };
}

export async function importDoseLimitsFile(db: Db, hospitalCode: string, path: string) {
  return importDoseLimitsText(db, hospitalCode, await readFile(path, 'utf8'));
}
