import {
  type DocumentKind,
  type DocumentLanguage,
  EDITABLE_KINDS,
  type PaperSize,
  type TDocumentTemplate,
  TEMPLATE_MANAGERS,
  type TTemplateCreate,
  type TTemplatePreview,
  type TTemplateUpdate,
} from '@greensen/shared/contracts/documents';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { markdownToHtml, parseMarkdown } from './markdown.js';
import { renderPdf } from './pdf.js';
import { KIND_NAMES, SHIPPED_TEMPLATES, type ShippedTemplate, shippedById, shippedFor } from './shipped.js';
import { renderInWorker, validateInWorker } from './template-pool.js';
import {
  activateTemplate,
  activeOwnKinds,
  activeOwnTemplate,
  archiveTemplate,
  findTemplate,
  insertTemplate,
  listOwnTemplates,
  type TemplateRow,
  updateTemplate,
} from './templates.repository.js';
import { TEMPLATE_FILTERS, TemplateError } from './templating.js';
import { demoVariables, variableCatalogue } from './variables.js';

/** Checks and previews of models per person and minute (issue 36: each one is a render). */
const RENDERS_PER_MINUTE = 30;

/** When Greensen's models were last changed (shown as their dates). */
const SHIPPED_AT = '2026-11-25T00:00:00.000Z';

/** A model a document can be made with: a shipped one or a hospital's. */
export interface UsableTemplate {
  id: string;
  kind: DocumentKind;
  language: DocumentLanguage;
  paper: PaperSize;
  name: string;
  body: string;
  shipped: boolean;
}

/** The 400 of a refused body: the translated line, column and reason, and the structured fields (contract). */
export function templateRefusal(err: TemplateError, lang: 'fr' | 'en', field = 'body'): ApiError {
  return new ApiError(400, 'validation.invalid', {
    fields: {
      [field]: ['documents.template_error'],
      template_line: [String(err.line)],
      template_column: [String(err.column)],
      template_reason: [err.reason],
    },
    params: {
      line: err.line,
      column: err.column,
      reason: translate(lang, `documents.template_reason.${err.reason}`),
    },
  });
}

/**
 * Document models (issue 19; decision 0023): Greensen's shipped models (read-only, in the code) and the
 * hospital's own, copied and adapted by its administrators and head doctors; one active model per kind and
 * language (the hospital's own active one, else Greensen's). Bodies are checked on every save.
 */
export class TemplatesService {
  constructor(private readonly app: FastifyInstance) {}

  private manager(ctx: ServiceContext) {
    return scopedHospital(ctx).groups.some((g) => TEMPLATE_MANAGERS.includes(g));
  }

  /** The kind + language pairs whose active model is the hospital's own. */
  private async ownActive(q: Queryable, hospitalId: string): Promise<Set<string>> {
    const rows = await activeOwnKinds(q, hospitalId);
    return new Set(rows.map((r) => `${r.kind}:${r.language}`));
  }

  private shippedView(ctx: ServiceContext, t: ShippedTemplate, overridden: boolean): TDocumentTemplate {
    const manager = this.manager(ctx);
    return {
      id: t.id,
      kind: t.kind,
      language: t.language,
      paper: t.paper,
      name: t.name,
      description: t.description,
      body: t.body,
      shipped: true,
      active: !overridden,
      archived: false,
      based_on: null,
      editable_on_issue: EDITABLE_KINDS.includes(t.kind),
      version: 1,
      created_at: SHIPPED_AT,
      updated_at: SHIPPED_AT,
      updated_by: null,
      can: { edit: false, activate: manager && overridden, archive: false },
    };
  }

  private ownView(ctx: ServiceContext, r: TemplateRow): TDocumentTemplate {
    const manager = this.manager(ctx);
    const archived = r.archived_at !== null;
    return {
      id: r.id,
      kind: r.kind,
      language: r.language,
      paper: r.paper,
      name: r.name,
      description: r.description,
      body: r.body,
      shipped: false,
      active: r.is_active,
      archived,
      based_on: r.based_on,
      editable_on_issue: EDITABLE_KINDS.includes(r.kind),
      version: Number(r.version),
      created_at: isoRequired(r.created_at),
      updated_at: isoRequired(r.updated_at),
      updated_by: r.updated_by_id ? { id: r.updated_by_id, full_name: r.updated_by_name ?? '' } : null,
      can: {
        edit: manager && !archived,
        activate: manager && !archived && !r.is_active,
        archive: manager && !archived,
      },
    };
  }

  async list(
    ctx: ServiceContext,
    f: {
      kind?: DocumentKind | undefined;
      language?: DocumentLanguage | undefined;
      origin: 'all' | 'shipped' | 'hospital';
      active?: boolean | undefined;
      archived?: boolean | undefined;
      search?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    const hospitalId = scopedHospital(ctx).id;
    const active = await this.ownActive(this.app.db, hospitalId);
    const needle = f.search?.toLowerCase();
    const shipped =
      f.origin === 'hospital' || f.archived === true
        ? []
        : SHIPPED_TEMPLATES.filter(
            (t) =>
              (!f.kind || t.kind === f.kind) &&
              (!f.language || t.language === f.language) &&
              (f.active === undefined || f.active === !active.has(`${t.kind}:${t.language}`)) &&
              (!needle || t.name.toLowerCase().includes(needle)),
          );
    const offset = (page - 1) * pageSize;
    const fromShipped = shipped.slice(offset, offset + pageSize);
    let own: TemplateRow[] = [];
    let ownCount = 0;
    if (f.origin !== 'shipped') {
      const limit = pageSize - fromShipped.length;
      const ownOffset = Math.max(0, offset - shipped.length);
      const result = await listOwnTemplates(
        this.app.db,
        hospitalId,
        { kind: f.kind, language: f.language, active: f.active, archived: f.archived, needle },
        limit,
        ownOffset,
      );
      own = result.rows;
      ownCount = result.count;
    }
    return {
      count: shipped.length + ownCount,
      rows: [
        ...fromShipped.map((t) => this.shippedView(ctx, t, active.has(`${t.kind}:${t.language}`))),
        ...own.map((r) => this.ownView(ctx, r)),
      ].map(({ body: _body, ...rest }) => rest),
    };
  }

  async get(ctx: ServiceContext, id: string): Promise<TDocumentTemplate> {
    const hospitalId = scopedHospital(ctx).id;
    const shipped = shippedById(id);
    if (shipped) {
      const active = await this.ownActive(this.app.db, hospitalId);
      return this.shippedView(ctx, shipped, active.has(`${shipped.kind}:${shipped.language}`));
    }
    const row = await findTemplate(this.app.db, hospitalId, id);
    if (!row) throw notFound();
    return this.ownView(ctx, row);
  }

  /** The model a document is made with: the given one (shipped or the hospital's, not archived), else the active one. */
  async usable(
    q: Queryable,
    hospitalId: string,
    kind: DocumentKind,
    language: DocumentLanguage,
    id: string | null | undefined,
  ): Promise<UsableTemplate> {
    if (id) {
      const shipped = shippedById(id);
      if (shipped) {
        if (shipped.kind !== kind) throw badRequest({ template: ['documents.template_kind'] });
        return { ...shipped, shipped: true };
      }
      const row = await findTemplate(q, hospitalId, id);
      if (!row || row.kind !== kind || row.archived_at !== null)
        throw badRequest({ template: ['documents.template_kind'] });
      return { ...row, shipped: false };
    }
    const row = await activeOwnTemplate(q, hospitalId, kind, language);
    return row ? { ...row, shipped: false } : { ...shippedFor(kind, language), shipped: true };
  }

  /** Checks a body in a worker thread (issue 36), each person within their rate of renders. */
  private async check(ctx: ServiceContext, kind: DocumentKind, language: DocumentLanguage, body: string) {
    await this.app.limits.hit(`documents:render:${actingUser(ctx).id}`, RENDERS_PER_MINUTE, 60_000);
    try {
      await validateInWorker(body, demoVariables(kind, language));
    } catch (err) {
      if (err instanceof TemplateError) throw templateRefusal(err, ctx.lang);
      throw err;
    }
  }

  async create(ctx: ServiceContext, body: TTemplateCreate): Promise<TDocumentTemplate> {
    const hospitalId = scopedHospital(ctx).id;
    const me = actingUser(ctx).id;
    await this.check(ctx, body.kind, body.language, body.body);
    if (body.based_on) {
      const source =
        shippedById(body.based_on) ?? (await findTemplate(this.app.db, hospitalId, body.based_on));
      if (!source || source.kind !== body.kind) throw badRequest({ based_on: ['documents.template_kind'] });
    }
    const id = await this.app.db.transaction(async (tx) => {
      const id = await insertTemplate(tx, {
        hospitalId,
        kind: body.kind,
        language: body.language,
        paper: body.paper,
        name: body.name,
        description: body.description ?? null,
        body: body.body,
        basedOn: body.based_on ?? null,
        createdBy: me,
        updatedBy: me,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'document_template.create',
          resourceType: 'document_template',
          resourceId: id,
          details: { kind: body.kind, language: body.language, based_on: body.based_on ?? null },
        },
        tx,
      );
      return id;
    });
    return this.get(ctx, id);
  }

  /** Locks a hospital model for a change: 409 for a shipped one, 404 for an unknown (or another hospital's). */
  private async lockOwn(q: Queryable, ctx: ServiceContext, id: string) {
    if (shippedById(id)) throw conflict('documents.template_shipped');
    const row = await findTemplate(q, scopedHospital(ctx).id, id, true);
    if (!row) throw notFound();
    return row;
  }

  /** A change, or `{stale}` when `version` is not the current one (409 with it). */
  async update(
    ctx: ServiceContext,
    id: string,
    body: TTemplateUpdate,
  ): Promise<TDocumentTemplate | { stale: true; version: number }> {
    const me = actingUser(ctx).id;
    const result = await this.app.db.transaction(async (tx) => {
      const row = await this.lockOwn(tx, ctx, id);
      if (Number(row.version) !== body.version) return { stale: true as const, version: Number(row.version) };
      if (row.archived_at !== null) throw conflict('documents.template_archived');
      if (body.body !== undefined) await this.check(ctx, row.kind, row.language, body.body);
      await updateTemplate(tx, id, {
        name: body.name ?? row.name,
        description: body.description === undefined ? row.description : body.description,
        paper: body.paper ?? row.paper,
        body: body.body ?? row.body,
        by: me,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'document_template.update',
          resourceType: 'document_template',
          resourceId: id,
          details: { fields: Object.keys(body).filter((k) => k !== 'version') },
        },
        tx,
      );
      return null;
    });
    return result ?? this.get(ctx, id);
  }

  /** Makes a model the hospital's one for its kind and language (a shipped one: back to Greensen's). */
  async activate(ctx: ServiceContext, id: string): Promise<TDocumentTemplate> {
    const hospitalId = scopedHospital(ctx).id;
    await this.app.db.transaction(async (tx) => {
      const shipped = shippedById(id);
      const target = shipped ?? (await findTemplate(tx, hospitalId, id, true));
      if (!target) throw notFound();
      if (!shipped && (target as TemplateRow).archived_at !== null)
        throw conflict('documents.template_archived');
      await activateTemplate(tx, hospitalId, {
        id,
        kind: target.kind,
        language: target.language,
        own: !shipped,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'document_template.activate',
          resourceType: 'document_template',
          resourceId: id,
          details: { kind: target.kind, language: target.language, shipped: Boolean(shipped) },
        },
        tx,
      );
    });
    return this.get(ctx, id);
  }

  async archive(ctx: ServiceContext, id: string): Promise<TDocumentTemplate> {
    await this.app.db.transaction(async (tx) => {
      const row = await this.lockOwn(tx, ctx, id);
      if (row.archived_at !== null) throw conflict('documents.template_archived');
      await archiveTemplate(tx, id, actingUser(ctx).id);
      await this.app.audit.record(
        ctx,
        { action: 'document_template.archive', resourceType: 'document_template', resourceId: id },
        tx,
      );
    });
    return this.get(ctx, id);
  }

  /** The body rendered with the demo data (checked first). */
  async preview(ctx: ServiceContext, body: TTemplatePreview) {
    await this.check(ctx, body.kind, body.language, body.body);
    let text: string;
    try {
      text = await renderInWorker(body.body, demoVariables(body.kind, body.language));
    } catch (err) {
      if (err instanceof TemplateError) throw templateRefusal(err, ctx.lang);
      throw err;
    }
    return { text, html: markdownToHtml(text) };
  }

  async previewPdf(ctx: ServiceContext, body: TTemplatePreview): Promise<Buffer> {
    const { text } = await this.preview(ctx, body);
    const demo = demoVariables(body.kind, body.language) as {
      hospital: { name: string; address: string; phones: string; header: string; footer: string };
      author: { display_name: string };
      date: { today: string };
    };
    return renderPdf(parseMarkdown(text), {
      paper: body.paper,
      language: body.language,
      title: KIND_NAMES[body.kind][body.language],
      number: null,
      date: demo.date.today,
      hospital: { ...demo.hospital, logo: null },
      author: demo.author.display_name,
      verification: null,
    });
  }

  variables(kind: DocumentKind) {
    return { kind, variables: variableCatalogue(kind), filters: TEMPLATE_FILTERS };
  }
}
