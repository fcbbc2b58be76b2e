// SQL outside a repository: a command-line importer (a file's rows in one transaction).
/**
 * Import of a full CIM-10 / ICD-10 file (`node apps/server/dist/cli.js import-icd10 <file>`, `npm run
 * icd10:import -- <file>`): CSV or TSV (delimiter detected from the header line), a header naming the code
 * column (`code`) and one or both label columns (`label_fr` / `libelle` / `libellé`, `label_en` / `label`);
 * optional `kind`, `parent_code`, `chapter` columns. Kind, parent and chapter are derived from the code when
 * absent (a category's parent is the block whose range holds it). Existing entries keep their structure and
 * the label of a language the file does not give; new entries are marked `imported`. One transaction.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  ICD10_BLOCK_PATTERN,
  ICD10_CODE_PATTERN,
  ICD10_KINDS,
  type Icd10Kind,
  normalizeIcd10Code,
} from '@greensen/shared/contracts/icd10';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { icd10Codes } from '../../db/schema/index.js';
import { blockOf, CHAPTER_ORDER, chapterOf, type Icd10Row, upsertIcd10Rows } from './icd10.catalogue.js';

export class Icd10ImportRefused extends Error {}

export interface Icd10ImportReport {
  /** Data lines read (blank lines not counted). */
  lines: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; reason: string }[];
}

const HEADER_ALIASES: Record<'code' | 'fr' | 'en' | 'kind' | 'parent' | 'chapter', string[]> = {
  code: ['code'],
  fr: ['label_fr', 'libelle', 'libelle_fr'],
  en: ['label_en', 'label'],
  kind: ['kind'],
  parent: ['parent_code', 'parent'],
  chapter: ['chapter'],
};
const MAX_LABEL = 1000;

const foldHeader = (h: string) =>
  h
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The delimiter of the header line: tab, else `;` or `,` (whichever appears more outside quotes). */
export function detectDelimiter(headerLine: string): '\t' | ';' | ',' {
  const outside = headerLine.replace(/"[^"]*"/g, '');
  if (outside.includes('\t')) return '\t';
  const semi = outside.split(';').length;
  const comma = outside.split(',').length;
  return semi > comma ? ';' : ',';
}

/** RFC 4180 records (quoted fields, doubled quotes, newlines inside quotes), with their first line number. */
export function parseDelimited(text: string, delimiter: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push({ line: start, fields });
      fields = [];
      field = '';
      line++;
      start = line;
    } else field += ch;
  }
  if (field !== '' || fields.length) {
    fields.push(field);
    records.push({ line: start, fields });
  }
  return records;
}

/** `A00.0+`, `a000`, ` B50.9 *` → `A00.0`, `A00.0`, `B50.9`; blocks and chapters upper-cased. */
export function cleanCode(raw: string): string {
  const s = raw
    .trim()
    .toUpperCase()
    .replace(/[\s+*†]/g, '');
  if (ICD10_BLOCK_PATTERN.test(s) || /^[IVX]+$/.test(s)) return s;
  return normalizeIcd10Code(s);
}

function kindOfCode(code: string): Icd10Kind | null {
  if (CHAPTER_ORDER.includes(code)) return 'chapter';
  if (ICD10_BLOCK_PATTERN.test(code)) return 'block';
  if (ICD10_CODE_PATTERN.test(code)) return code.includes('.') ? 'code' : 'category';
  return null;
}

interface ParsedLine {
  line: number;
  code: string;
  kind: Icd10Kind;
  fr: string | null;
  en: string | null;
  parent: string | null;
}

const KIND_ORDER: Record<Icd10Kind, number> = { chapter: 0, block: 1, category: 2, code: 3 };

export async function importIcd10File(db: Db, path: string): Promise<Icd10ImportReport> {
  if (!existsSync(path)) throw new Icd10ImportRefused(`File not found: ${path}`);
  return importIcd10Text(db, readFileSync(path, 'utf8'));
}

export async function importIcd10Text(db: Db, input: string): Promise<Icd10ImportReport> {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const records = parseDelimited(text, detectDelimiter(firstLine));
  const header = (records.shift()?.fields ?? []).map(foldHeader);
  const col = (key: keyof typeof HEADER_ALIASES) => {
    const i = header.findIndex((h) => HEADER_ALIASES[key].includes(h));
    return i < 0 ? null : i;
  };
  const cols = {
    code: col('code'),
    fr: col('fr'),
    en: col('en'),
    kind: col('kind'),
    parent: col('parent'),
    chapter: col('chapter'),
  };
  if (cols.code === null) throw new Icd10ImportRefused('The header must name the code column ("code").');
  if (cols.fr === null && cols.en === null)
    throw new Icd10ImportRefused(
      'The header must name a label column ("label_fr", "libelle" or "libellé"; "label_en" or "label").',
    );

  const report: Icd10ImportReport = { lines: 0, inserted: 0, updated: 0, unchanged: 0, rejected: [] };
  const reject = (line: number, reason: string) => report.rejected.push({ line, reason });
  const cell = (fields: string[], i: number | null) => (i === null ? '' : (fields[i] ?? '').trim());

  const parsed = new Map<string, ParsedLine>();
  for (const { line, fields } of records) {
    if (fields.every((f) => f.trim() === '')) continue;
    report.lines++;
    const raw = cell(fields, cols.code);
    if (!raw) {
      reject(line, 'missing code');
      continue;
    }
    const code = cleanCode(raw);
    const shape = kindOfCode(code);
    if (!shape) {
      reject(line, `invalid code "${raw}" (expected e.g. B50 or B50.9)`);
      continue;
    }
    const declared = cell(fields, cols.kind).toLowerCase();
    if (declared && !(ICD10_KINDS as readonly string[]).includes(declared)) {
      reject(line, `unknown kind "${declared}"`);
      continue;
    }
    if (declared && declared !== shape) {
      reject(line, `kind "${declared}" does not match the code ${code} (${shape})`);
      continue;
    }
    const fr = cell(fields, cols.fr) || null;
    const en = cell(fields, cols.en) || null;
    if (!fr && !en) {
      reject(line, `no label for ${code}`);
      continue;
    }
    if ((fr?.length ?? 0) > MAX_LABEL || (en?.length ?? 0) > MAX_LABEL) {
      reject(line, `label longer than ${MAX_LABEL} characters for ${code}`);
      continue;
    }
    const declaredChapter = cell(fields, cols.chapter).toUpperCase();
    if (declaredChapter && shape !== 'chapter' && declaredChapter !== chapterOf(code)) {
      reject(line, `chapter "${declaredChapter}" does not hold ${code}`);
      continue;
    }
    if (parsed.has(code)) {
      reject(line, `duplicate code ${code} (first on line ${parsed.get(code)!.line})`);
      continue;
    }
    const parent = cell(fields, cols.parent);
    parsed.set(code, { line, code, kind: shape, fr, en, parent: parent ? cleanCode(parent) : null });
  }

  // What the database holds already: every chapter and block, and the rows the file names.
  const structure = await db
    .select({ code: icd10Codes.code, kind: icd10Codes.kind })
    .from(icd10Codes)
    .where(inArray(icd10Codes.kind, ['chapter', 'block']));
  const existing = new Map<string, Icd10Row & { imported: boolean }>();
  const codes = [...parsed.keys()];
  for (let i = 0; i < codes.length; i += 1000) {
    const rows = await db
      .select()
      .from(icd10Codes)
      .where(inArray(icd10Codes.code, codes.slice(i, i + 1000)));
    for (const r of rows) existing.set(r.code, r);
  }
  const known = new Set<string>(structure.map((r) => r.code));
  // The categories of the file's codes that the database already holds.
  const categories = [
    ...new Set([...parsed.values()].filter((p) => p.kind === 'code').map((p) => p.code.slice(0, 3))),
  ];
  for (let i = 0; i < categories.length; i += 1000) {
    const rows = await db
      .select({ code: icd10Codes.code })
      .from(icd10Codes)
      .where(inArray(icd10Codes.code, categories.slice(i, i + 1000)));
    for (const r of rows) known.add(r.code);
  }
  const blocks = structure.filter((r) => r.kind === 'block').map((r) => r.code);
  for (const p of parsed.values()) if (p.kind === 'block' && !known.has(p.code)) blocks.push(p.code);

  const out: (Icd10Row & { imported: boolean })[] = [];
  const ordered = [...parsed.values()].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.code.localeCompare(b.code),
  );
  for (const p of ordered) {
    const before = existing.get(p.code);
    if (before) {
      const labelFr = p.fr ?? before.labelFr;
      const labelEn = p.en ?? before.labelEn;
      known.add(p.code);
      if (labelFr === before.labelFr && labelEn === before.labelEn) {
        report.unchanged++;
        continue;
      }
      out.push({ ...before, labelFr, labelEn });
      report.updated++;
      continue;
    }
    let parent: string | null;
    let chapter: string | null;
    if (p.kind === 'chapter') {
      parent = null;
      chapter = p.code;
    } else if (p.kind === 'block') {
      chapter = chapterOf(p.code);
      parent = chapter;
      if (!chapter) {
        reject(p.line, `block ${p.code} is outside the ICD-10 chapters`);
        continue;
      }
    } else if (p.kind === 'category') {
      parent = p.parent ?? blockOf(p.code, blocks);
      chapter = chapterOf(p.code);
      if (!parent || !known.has(parent)) {
        reject(p.line, `no block holds ${p.code}`);
        continue;
      }
    } else {
      parent = p.code.slice(0, 3);
      chapter = chapterOf(p.code);
      if (!known.has(parent)) {
        reject(p.line, `unknown category ${parent} for ${p.code}`);
        continue;
      }
    }
    known.add(p.code);
    out.push({
      code: p.code,
      kind: p.kind,
      parentCode: parent,
      chapter,
      labelFr: (p.fr ?? p.en)!,
      labelEn: (p.en ?? p.fr)!,
      common: false,
      imported: true,
    });
    report.inserted++;
  }
  report.rejected.sort((a, b) => a.line - b.line);
  if (out.length) {
    await db.transaction(async (tx) => {
      await upsertIcd10Rows(tx, out);
      await tx.execute(sql`analyze icd10_codes`);
    });
  }
  return report;
}
