import type { DocumentKind, DocumentLanguage, PaperSize } from '@greensen/shared/contracts/documents';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { documentTemplates } from '../../db/schema/index.js';

// The SQL of the hospitals' own document models (issue 19; decision 0023); Greensen's shipped models are in the
// code (shipped.ts) and the rules (one active model per kind and language, who may change) in templates.service.ts.

export type TemplateRow = {
  id: string;
  kind: DocumentKind;
  language: DocumentLanguage;
  paper: PaperSize;
  name: string;
  description: string | null;
  body: string;
  based_on: string | null;
  is_active: boolean;
  archived_at: Date | string | null;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  updated_by_id: string | null;
  updated_by_name: string | null;
};

const SELECT = sql`select t.id, t.kind, t.language, t.paper, t.name, t.description, t.body, t.based_on, t.is_active,
    t.archived_at, t.version, t.created_at, t.updated_at, u.id as updated_by_id,
    trim(u.first_name || ' ' || u.last_name) as updated_by_name
  from document_templates t join users u on u.id = t.updated_by`;

export async function findTemplate(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res = await q.execute<TemplateRow>(
    sql`${SELECT} where t.id = ${id} and t.hospital_id = ${hospitalId}${lock ? sql` for update of t` : sql``}`,
  );
  return res.rows[0] ?? null;
}

/** The hospital's own active model of a kind and language, or null (Greensen's is then the active one). */
export async function activeOwnTemplate(
  q: Queryable,
  hospitalId: string,
  kind: DocumentKind,
  language: DocumentLanguage,
) {
  const res = await q.execute<TemplateRow>(
    sql`${SELECT} where t.hospital_id = ${hospitalId} and t.kind = ${kind} and t.language = ${language} and t.is_active`,
  );
  return res.rows[0] ?? null;
}

/** The kind and language of each of the hospital's own active models. */
export async function activeOwnKinds(q: Queryable, hospitalId: string) {
  const res = await q.execute<{ kind: string; language: string }>(
    sql`select kind, language from document_templates where hospital_id = ${hospitalId} and is_active`,
  );
  return res.rows;
}

/** A page of the hospital's own models (`limit` 0: the count only), by kind, language and name, and the count. */
export async function listOwnTemplates(
  q: Queryable,
  hospitalId: string,
  f: {
    kind?: DocumentKind | undefined;
    language?: DocumentLanguage | undefined;
    active?: boolean | undefined;
    archived?: boolean | undefined;
    /** Lower case. */
    needle?: string | undefined;
  },
  limit: number,
  offset: number,
) {
  const where = sql.join(
    [
      sql`t.hospital_id = ${hospitalId}`,
      f.kind ? sql`t.kind = ${f.kind}` : null,
      f.language ? sql`t.language = ${f.language}` : null,
      f.active !== undefined ? sql`t.is_active = ${f.active}` : null,
      f.archived ? sql`t.archived_at is not null` : sql`t.archived_at is null`,
      f.needle ? sql`strpos(lower(t.name), ${f.needle}) > 0` : null,
    ].filter((c): c is SQL => c !== null),
    sql` and `,
  );
  const [rows, count] = await Promise.all([
    limit > 0
      ? q.execute<TemplateRow>(
          sql`${SELECT} where ${where} order by t.kind, t.language, t.name, t.id limit ${limit} offset ${offset}`,
        )
      : Promise.resolve({ rows: [] as TemplateRow[] }),
    q.execute<{ n: number }>(sql`select count(*)::int as n from document_templates t where ${where}`),
  ]);
  return { rows: rows.rows, count: Number(count.rows[0]!.n) };
}

export async function insertTemplate(q: Queryable, values: typeof documentTemplates.$inferInsert) {
  const [row] = await q.insert(documentTemplates).values(values).returning({ id: documentTemplates.id });
  return row!.id;
}

export async function updateTemplate(
  q: Queryable,
  id: string,
  t: { name: string; description: string | null; paper: PaperSize; body: string; by: string },
) {
  await q.execute(sql`update document_templates set
      name = ${t.name},
      description = ${t.description},
      paper = ${t.paper},
      body = ${t.body},
      version = version + 1, updated_by = ${t.by}, updated_at = now()
    where id = ${id}`);
}

/**
 * Makes `id` the hospital's one model of its kind and language: the others are deactivated, the models of the kind
 * and language locked first (two activations are one after the other); a shipped `id` (`own` false) is activated by
 * deactivating all of them.
 */
export async function activateTemplate(
  q: Queryable,
  hospitalId: string,
  target: { id: string; kind: DocumentKind; language: DocumentLanguage; own: boolean },
) {
  await q.execute(sql`select id from document_templates where hospital_id = ${hospitalId}
    and kind = ${target.kind} and language = ${target.language} for update`);
  await q.execute(sql`update document_templates set is_active = false, updated_at = now()
    where hospital_id = ${hospitalId} and kind = ${target.kind} and language = ${target.language} and is_active
      and id <> ${target.id}`);
  if (target.own)
    await q.execute(sql`update document_templates set is_active = true where id = ${target.id}`);
}

export async function archiveTemplate(q: Queryable, id: string, by: string) {
  await q.execute(
    sql`update document_templates set archived_at = now(), is_active = false, updated_by = ${by}, updated_at = now() where id = ${id}`,
  );
}
