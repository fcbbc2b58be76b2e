import { createHash, randomBytes } from 'node:crypto';
import {
  ADMINISTRATIVE_KINDS,
  type DocumentKind,
  type DocumentLanguage,
  EDITABLE_KINDS,
  KIND_ISSUERS,
  KIND_SOURCES,
  type TDocument,
  type TDocumentDraftCreate,
  type TDocumentIssue,
  type TDocumentSource,
  type TDocumentVerification,
} from '@greensen/shared/contracts/documents';
import { titlePrefix } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { listReadEntry } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import {
  type DocumentFilters,
  type DocumentRow,
  findDocumentRow,
  findVerification,
  insertDocument,
  listDocuments,
  lockDocumentForCancel,
  markDocumentCancelled,
  patientRefOf,
} from './documents.repository.js';
import { markdownToHtml, parseMarkdown } from './markdown.js';
import { renderPdf } from './pdf.js';
import { KIND_NAMES, KIND_PREFIXES } from './shipped.js';
import { commonVariables, formatDate, sourceVariables } from './sources.js';
import { authorFacts, type HospitalFacts, hospitalFacts, sourceInHospital } from './sources.repository.js';
import { renderInWorker } from './template-pool.js';
import { TemplatesService, templateRefusal, type UsableTemplate } from './templates.service.js';
import { TemplateError } from './templating.js';

/** The short code printed under the QR code: 8 characters of the token's SHA-256 in Crockford base 32. */
export function verificationCode(token: string): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = createHash('sha256').update(token).digest();
  let bits = 0n;
  for (const b of bytes.subarray(0, 5)) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 8; i++) out = alphabet[Number((bits >> BigInt(i * 5)) & 31n)] + out;
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

/**
 * Issued documents (issue 19; decision 0023): a draft rendered from a source with a model, issued (numbered per
 * hospital, kind and year without gaps, signed by its author, its PDF stored once with its SHA-256), read and
 * printed again as the same bytes, cancelled with a reason; and the public verification of a document's token.
 */
export class DocumentsService {
  readonly templates: TemplatesService;

  constructor(private readonly app: FastifyInstance) {
    this.templates = new TemplatesService(app);
  }

  /** Whether the caller reads clinical documents (anyone of the hospital but a secretary only). */
  private clinicalReader(ctx: ServiceContext) {
    return scopedHospital(ctx).groups.some((g) => g !== 'secretary');
  }

  private mayIssue(ctx: ServiceContext, kind: DocumentKind) {
    return scopedHospital(ctx).groups.some((g) => KIND_ISSUERS[kind].includes(g));
  }

  private mayCancel(ctx: ServiceContext, authorId: string) {
    const groups = scopedHospital(ctx).groups;
    return actingUser(ctx).id === authorId || groups.includes('head_doctor') || groups.includes('admin');
  }

  private view(ctx: ServiceContext, r: DocumentRow): TDocument {
    const text = r.body;
    return {
      id: r.id,
      number: r.number,
      kind: r.kind,
      language: r.language,
      paper: r.paper,
      status: r.cancelled_at ? 'cancelled' : 'valid',
      patient: patientRef(r),
      author: { id: r.author_id, full_name: r.author_name },
      template: { id: r.template_id, name: r.template_name, shipped: r.template_shipped },
      source: { type: r.source_type, id: r.source_id },
      text,
      html: markdownToHtml(text),
      issued_at: isoRequired(r.issued_at),
      sha256: r.sha256,
      size_bytes: Number(r.size_bytes),
      verification_code: r.verification_code,
      verification_path: `/verify/${r.verification_token}`,
      cancelled_at: iso(r.cancelled_at),
      cancelled_by: r.cancelled_by_id
        ? { id: r.cancelled_by_id, full_name: r.cancelled_by_name ?? '' }
        : null,
      cancel_reason: r.cancel_reason,
      can: { cancel: !r.cancelled_at && this.mayCancel(ctx, r.author_id) },
    };
  }

  /** The model, the variables and the rendered text of a document to be: 403/400 as the issue would answer. */
  private async prepare(
    q: Queryable,
    ctx: ServiceContext,
    body: {
      kind: DocumentKind;
      source: TDocumentSource;
      template?: string | null;
      language?: DocumentLanguage;
    },
  ) {
    const hospital = scopedHospital(ctx);
    // Another hospital's source is not found, before any rule about it is asked.
    if (!(await sourceInHospital(q, hospital.id, body.source))) throw notFound();
    if (!this.mayIssue(ctx, body.kind)) throw forbidden('documents.kind_forbidden');
    if (!KIND_SOURCES[body.kind].includes(body.source.type))
      throw badRequest({ source: ['documents.source_kind'] });
    const template = await this.templates.usable(
      q,
      hospital.id,
      body.kind,
      body.language ?? 'fr',
      body.template,
    );
    // One after the other: `q` may be a transaction's single connection.
    const h = await hospitalFacts(q, hospital.id);
    const author = await authorFacts(q, hospital.id, actingUser(ctx).id);
    const now = new Date();
    const lang = template.language;
    const common = commonVariables(h, author, lang, now);
    const { patientId, vars } = await sourceVariables(q, ctx, body.kind, body.source, common, {
      tz: h.time_zone,
      lang,
    });
    let text: string;
    try {
      text = await renderInWorker(template.body, vars);
    } catch (err) {
      if (err instanceof TemplateError) throw templateRefusal(err, ctx.lang, 'template');
      throw err;
    }
    return { template, h, author, now, patientId, text };
  }

  /** `POST /api/documents/draft/`: the text the issue would print (nothing stored). */
  async draft(ctx: ServiceContext, body: TDocumentDraftCreate & { language: DocumentLanguage }) {
    const p = await this.prepare(this.app.db, ctx, body);
    await this.app.audit.record(ctx, {
      action: 'document.draft',
      resourceType: 'document',
      patientId: p.patientId,
      details: { kind: body.kind, source: body.source, template: p.template.id },
    });
    return {
      kind: body.kind,
      language: p.template.language,
      paper: p.template.paper,
      template: { id: p.template.id, name: p.template.name, shipped: p.template.shipped },
      patient: await patientRefOf(this.app.db, p.patientId),
      source: body.source,
      text: p.text,
      html: markdownToHtml(p.text),
      editable: EDITABLE_KINDS.includes(body.kind),
    };
  }

  private async pdfOf(
    text: string,
    t: UsableTemplate,
    h: HospitalFacts,
    author: string,
    number: string,
    issued: Date,
    token: string,
    code: string,
  ) {
    const logo =
      h.logo_data && (h.logo_type === 'image/png' || h.logo_type === 'image/jpeg')
        ? `data:${h.logo_type};base64,${h.logo_data}`
        : null;
    const blocks = parseMarkdown(text);
    const layout = (withLogo: string | null): Parameters<typeof renderPdf>[1] => ({
      paper: t.paper,
      language: t.language,
      title: `${KIND_NAMES[t.kind][t.language]} ${number}`,
      number,
      date: formatDate(issued, { tz: h.time_zone, lang: t.language }),
      hospital: {
        name: h.name,
        address: h.address,
        phones: (Array.isArray(h.phones) ? h.phones : (JSON.parse(h.phones || '[]') as string[])).join(' · '),
        header: h.print_header,
        footer: h.print_footer,
        logo: withLogo,
      },
      author,
      verification: { url: `${this.app.config.publicUrl.replace(/\/+$/, '')}/verify/${token}`, code },
    });
    try {
      return await renderPdf(blocks, layout(logo));
    } catch (err) {
      if (!logo) throw err;
      // Issue 36: a logo that cannot be drawn (stored before uploads were decoded fully) never stops a document:
      // it is issued without it, and the error is logged for the administrators to replace the logo.
      this.app.log.error(
        { err: { message: (err as Error).message }, hospital: h.name, logo_type: h.logo_type },
        'hospital logo could not be drawn: document printed without it',
      );
      return renderPdf(blocks, layout(null));
    }
  }

  /** `POST /api/documents/`: numbered, signed by the caller, its PDF stored once. */
  async issue(
    ctx: ServiceContext,
    body: TDocumentIssue & { language: DocumentLanguage },
  ): Promise<TDocument> {
    const hospital = scopedHospital(ctx);
    if (body.text !== undefined && body.text !== null && !EDITABLE_KINDS.includes(body.kind))
      throw badRequest({ text: ['documents.not_editable'] });
    const id = await this.app.db.transaction(async (tx) => {
      const p = await this.prepare(tx, ctx, body);
      const text = body.text?.trim() ? `${body.text.trim()}\n` : p.text;
      const issuedOn = new Intl.DateTimeFormat('en-CA', { timeZone: p.h.time_zone }).format(p.now);
      const year = issuedOn.slice(0, 4);
      // The number: the hospital's sequence of the kind and year, locked until this transaction ends.
      const n = await nextSequenceValue(tx, hospital.id, `document:${body.kind}:${year}`);
      const number = `${KIND_PREFIXES[body.kind]}-${hospital.code}-${year}-${String(n).padStart(6, '0')}`;
      const token = randomBytes(16).toString('base64url');
      const code = verificationCode(token);
      const title = titlePrefix(p.author.role_code ?? '');
      const authorName = title ? `${title} ${p.author.full_name}` : p.author.full_name;
      const pdf = await this.pdfOf(text, p.template, p.h, authorName, number, p.now, token, code);
      const docId = uuidv7();
      const key = `documents/${hospital.id}/${year}/${docId}.pdf`;
      await insertDocument(tx, {
        id: docId,
        hospitalId: hospital.id,
        number,
        kind: body.kind,
        language: p.template.language,
        paper: p.template.paper,
        patientId: p.patientId,
        authorId: actingUser(ctx).id,
        templateId: p.template.id,
        templateName: p.template.name,
        templateShipped: p.template.shipped,
        sourceType: body.source.type,
        sourceId: body.source.id,
        body: text,
        storageKey: key,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        sizeBytes: pdf.length,
        verificationToken: token,
        verificationCode: code,
        issuedAt: p.now,
        issuedOn,
      });
      // Written before the transaction commits: a failed write rolls the row back (a file without a row is
      // harmless and never served).
      await this.app.files.put(key, pdf, tx);
      await this.app.audit.record(
        ctx,
        {
          action: 'document.issue',
          resourceType: 'document',
          resourceId: docId,
          patientId: p.patientId,
          details: {
            kind: body.kind,
            number,
            source: body.source,
            template: p.template.id,
            edited: text !== p.text,
          },
        },
        tx,
      );
      return docId;
    });
    return this.detail(ctx, id);
  }

  private async find(ctx: ServiceContext, id: string, q: Queryable = this.app.db) {
    const row = await findDocumentRow(q, scopedHospital(ctx).id, id);
    if (!row) throw notFound();
    if (!ADMINISTRATIVE_KINDS.includes(row.kind) && !this.clinicalReader(ctx)) throw forbidden();
    return row;
  }

  async detail(ctx: ServiceContext, id: string): Promise<TDocument> {
    return this.view(ctx, await this.find(ctx, id));
  }

  async read(ctx: ServiceContext, id: string): Promise<TDocument> {
    const row = await this.find(ctx, id);
    await this.app.audit.record(ctx, {
      action: 'document.read',
      resourceType: 'document',
      resourceId: id,
      patientId: row.p_id,
    });
    return this.view(ctx, row);
  }

  /** The stored PDF (the same bytes every time), its name; the download is audited. */
  async pdf(ctx: ServiceContext, id: string, disposition: 'inline' | 'attachment') {
    const row = await this.find(ctx, id);
    const bytes = await this.app.files.get(row.storage_key);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== row.sha256)
      throw new Error(`document ${id}: stored file missing or altered`);
    await this.app.audit.record(ctx, {
      action: 'document.download',
      resourceType: 'document',
      resourceId: id,
      patientId: row.p_id,
      details: { disposition, sha256: row.sha256 },
    });
    return { bytes, fileName: `${row.number}.pdf` };
  }

  async list(ctx: ServiceContext, f: DocumentFilters, page: number, pageSize: number) {
    const { count, rows } = await listDocuments(
      this.app.db,
      scopedHospital(ctx).id,
      f,
      this.clinicalReader(ctx),
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, listReadEntry('document.list', 'document', f, page, rows.length));
    return {
      count,
      rows: rows.map((r) => {
        const { text: _t, html: _h, ...item } = this.view(ctx, r);
        return item;
      }),
    };
  }

  async cancel(ctx: ServiceContext, id: string, reason: string): Promise<TDocument> {
    await this.app.db.transaction(async (tx) => {
      const row = await lockDocumentForCancel(tx, scopedHospital(ctx).id, id);
      if (!row) throw notFound();
      if (!this.mayCancel(ctx, row.author_id)) throw forbidden('documents.not_author');
      if (row.cancelled_at) throw conflict('documents.already_cancelled');
      await markDocumentCancelled(tx, id, actingUser(ctx).id, reason);
      await this.app.audit.record(
        ctx,
        {
          action: 'document.cancel',
          resourceType: 'document',
          resourceId: id,
          patientId: row.patient_id,
          details: { kind: row.kind, reason },
        },
        tx,
      );
    });
    return this.detail(ctx, id);
  }

  /**
   * The public verification: authenticity (kind, number, date, hospital, issuer, status) and, so that the paper
   * can be matched to its bearer, the patient's initials and year of birth — nothing more (issue 37).
   */
  async verify(token: string): Promise<TDocumentVerification> {
    const r = await findVerification(this.app.db, token);
    if (!r) throw notFound();
    const title = titlePrefix(r.role_code ?? '');
    return {
      kind: r.kind,
      number: r.number,
      issued_at: isoRequired(r.issued_at),
      issued_on: r.issued_on,
      hospital: { name: r.hospital_name, code: r.hospital_code },
      issuer: title ? `${title} ${r.author_name}` : r.author_name,
      patient: {
        initials: initialsOf(r.patient_first_name, r.patient_last_name),
        birth_year: r.patient_birth_year === null ? null : Number(r.patient_birth_year),
      },
      status: r.cancelled_at ? 'cancelled' : 'valid',
      cancelled_at: iso(r.cancelled_at),
      verification_code: r.verification_code,
    };
  }
}

/** "Jean-Marie", "Kabila Mobutu" → "J.-M. K. M.": the first letter of each part of the names, never more. */
export function initialsOf(firstName: string, lastName: string): string {
  const initials = (name: string) =>
    name
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((word) =>
        word
          .split('-')
          .filter(Boolean)
          .map((part) => `${part.charAt(0).toLocaleUpperCase('fr')}.`)
          .join('-'),
      )
      .join(' ');
  return [initials(firstName), initials(lastName)].filter(Boolean).join(' ');
}
