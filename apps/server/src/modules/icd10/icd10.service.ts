import type { Icd10Kind, TIcd10Detail, TIcd10Entry } from '@greensen/shared/contracts/icd10';
import { normalizeIcd10Code } from '@greensen/shared/contracts/icd10';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { browseIcd10, findIcd10, type Icd10DbRow, searchIcd10 } from './icd10.repository.js';

export function toEntry(row: Icd10DbRow, lang: Lang): TIcd10Entry {
  return {
    code: row.code,
    kind: row.kind,
    label_fr: row.label_fr,
    label_en: row.label_en,
    label: lang === 'en' ? row.label_en : row.label_fr,
    chapter: row.chapter,
    parent_code: row.parent_code,
    common: row.common,
  };
}

export interface Icd10ListInput {
  search?: string | undefined;
  kind?: Icd10Kind | undefined;
  parent?: string | undefined;
  common?: boolean | undefined;
  page: number;
  page_size: number;
}

/** The catalogue is global (not hospital data): reads are not audited. */
export class Icd10Service {
  constructor(private readonly app: FastifyInstance) {}

  async list(ctx: ServiceContext, q: Icd10ListInput) {
    const lang = ctx.lang;
    const offset = (q.page - 1) * q.page_size;
    const filters = { kind: q.kind, common: q.common };
    const result = q.search
      ? await this.app.db.transaction((tx) => searchIcd10(tx, q.search!, filters, q.page_size, offset))
      : await browseIcd10(
          this.app.db,
          q.parent ? codeParam(q.parent) : undefined,
          filters,
          q.page_size,
          offset,
        );
    return { count: result.count, rows: result.rows.map((r) => toEntry(r, lang)) };
  }

  async get(ctx: ServiceContext, code: string): Promise<TIcd10Detail> {
    const lang = ctx.lang;
    const found = await findIcd10(this.app.db, codeParam(code));
    if (!found) throw notFound('icd10.not_found');
    return {
      ...toEntry(found.entry, lang),
      imported: found.entry.imported,
      parents: found.parents.map((r) => toEntry(r, lang)),
      children: found.children.map((r) => toEntry(r, lang)),
    };
  }
}

/** A code as typed in a path or filter: `b50.9`, `B509` → `B50.9`; blocks and chapters upper-cased. */
export function codeParam(raw: string): string {
  const up = raw.trim().toUpperCase();
  return /^[A-Z][0-9]{2}-/.test(up) || /^[IVX]+$/.test(up) ? up : normalizeIcd10Code(up);
}
