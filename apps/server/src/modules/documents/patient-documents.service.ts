import { createHash } from 'node:crypto';
import type {
  PatientDocumentCategory,
  TPatientDocument,
  TPatientDocumentFields,
} from '@greensen/shared/contracts/documents';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { patientDocuments } from '../../db/schema/index.js';
import { isoRequired, PATIENT_REF_COLUMNS, patientRef, type RefRow } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { documentTypeOf } from '../../lib/images.js';
import { listReadEntry } from '../../lib/queries.js';
import { findHospitalSettings } from '../hospital-settings/hospital-settings.repository.js';

interface Row extends RefRow {
  id: string;
  category: PatientDocumentCategory;
  document_date: string | null;
  description: string | null;
  file_name: string;
  content_type: TPatientDocument['content_type'];
  size_bytes: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  uploader_name: string;
  uploaded_at: Date | string;
}

const SELECT = sql`select pd.id, pd.category, pd.document_date::text as document_date, pd.description, pd.file_name,
    pd.content_type, pd.size_bytes, pd.sha256, pd.storage_key, pd.uploaded_by,
    trim(u.first_name || ' ' || u.last_name) as uploader_name, pd.uploaded_at, ${PATIENT_REF_COLUMNS}
  from patient_documents pd join patients p on p.id = pd.patient_id join users u on u.id = pd.uploaded_by`;

/** A file name as shown: its last path segment, control characters and quotes removed, 200 characters at most. */
export function cleanFileName(name: string | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...last]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"')
    .join('')
    .trim()
    .slice(0, 200);
  return cleaned || 'document';
}

export const fileTooLarge = () => new ApiError(413, 'documents.file_too_large');

/**
 * Patient documents (issue 19; decision 0023): scans, photos and PDFs added to a patient's record, their type
 * recognised by content, kept in the file storage; every view and download audited; deleted softly with a reason.
 */
export class PatientDocumentsService {
  constructor(private readonly app: FastifyInstance) {}

  /** The hospital's upload limit in bytes (its setting, 10 MB by default). */
  async maxBytes(ctx: ServiceContext): Promise<number> {
    const settings = await findHospitalSettings(this.app.db, scopedHospital(ctx).id);
    return settings.upload_max_mb * 1024 * 1024;
  }

  private mayDelete(ctx: ServiceContext, uploader: string) {
    const groups = scopedHospital(ctx).groups;
    return actingUser(ctx).id === uploader || groups.includes('head_doctor') || groups.includes('admin');
  }

  private view(ctx: ServiceContext, r: Row): TPatientDocument {
    return {
      id: r.id,
      patient: patientRef(r),
      category: r.category,
      document_date: r.document_date,
      description: r.description,
      file_name: r.file_name,
      content_type: r.content_type,
      size_bytes: Number(r.size_bytes),
      sha256: r.sha256,
      viewable: r.content_type !== 'image/heic' && !r.content_type.startsWith('audio/'),
      uploaded_by: { id: r.uploaded_by, full_name: r.uploader_name },
      uploaded_at: isoRequired(r.uploaded_at),
      can: { delete: this.mayDelete(ctx, r.uploaded_by) },
    };
  }

  private async find(q: Queryable, ctx: ServiceContext, id: string, lock = false) {
    const res = await q.execute<Row>(
      sql`${SELECT} where pd.id = ${id} and pd.hospital_id = ${scopedHospital(ctx).id} and pd.deleted_at is null${lock ? sql` for update of pd` : sql``}`,
    );
    const row = res.rows[0];
    if (!row) throw notFound();
    return row;
  }

  /**
   * Adds a file to a patient's record. `opts.type` is a type the caller already recognised from the content (the
   * dictation's audio, issue 23); `opts.within` runs in the same transaction, after the document's row.
   */
  async upload(
    ctx: ServiceContext,
    fields: TPatientDocumentFields,
    file: { name: string | undefined; bytes: Buffer },
    opts: {
      type?: TPatientDocument['content_type'];
      within?: (tx: Queryable, documentId: string) => Promise<void>;
    } = {},
  ): Promise<TPatientDocument> {
    const hospital = scopedHospital(ctx);
    if (file.bytes.length === 0) throw badRequest({ file: ['documents.file_missing'] });
    if (file.bytes.length > (await this.maxBytes(ctx))) throw fileTooLarge();
    const type = opts.type ?? documentTypeOf(file.bytes);
    if (!type) throw badRequest({ file: ['documents.file_type'] });
    const patient = await this.app.db.execute(
      sql`select id from patients where id = ${fields.patient} and hospital_id = ${hospital.id}`,
    );
    if (!patient.rows[0]) throw badRequest({ patient: ['documents.patient_unknown'] });
    const id = uuidv7();
    const key = `patient-documents/${hospital.id}/${id}`;
    await this.app.db.transaction(async (tx) => {
      await tx.insert(patientDocuments).values({
        id,
        hospitalId: hospital.id,
        patientId: fields.patient,
        category: fields.category,
        documentDate: fields.document_date ?? null,
        description: fields.description ?? null,
        fileName: cleanFileName(file.name),
        contentType: type,
        sizeBytes: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        storageKey: key,
        uploadedBy: actingUser(ctx).id,
      });
      await this.app.files.put(key, file.bytes, tx);
      await this.app.audit.record(
        ctx,
        {
          action: 'patient_document.upload',
          resourceType: 'patient_document',
          resourceId: id,
          patientId: fields.patient,
          details: { category: fields.category, content_type: type, size: file.bytes.length },
        },
        tx,
      );
      if (opts.within) await opts.within(tx, id);
    });
    return this.view(ctx, await this.find(this.app.db, ctx, id));
  }

  async read(ctx: ServiceContext, id: string): Promise<TPatientDocument> {
    const row = await this.find(this.app.db, ctx, id);
    await this.app.audit.record(ctx, {
      action: 'patient_document.read',
      resourceType: 'patient_document',
      resourceId: id,
      patientId: row.p_id,
    });
    return this.view(ctx, row);
  }

  /** The file's bytes and type; viewing or downloading is audited. */
  async file(ctx: ServiceContext, id: string, disposition: 'inline' | 'attachment') {
    const row = await this.find(this.app.db, ctx, id);
    const bytes = await this.app.files.get(row.storage_key);
    if (!bytes) throw new Error(`patient document ${id}: stored file missing`);
    await this.app.audit.record(ctx, {
      action: disposition === 'inline' ? 'patient_document.view' : 'patient_document.download',
      resourceType: 'patient_document',
      resourceId: id,
      patientId: row.p_id,
    });
    return { bytes, type: row.content_type, fileName: row.file_name };
  }

  async list(
    ctx: ServiceContext,
    f: {
      patient?: string | undefined;
      category?: PatientDocumentCategory | undefined;
      uploaded_by?: string | undefined;
      date_from?: string | undefined;
      date_to?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    const hospitalId = scopedHospital(ctx).id;
    const where = sql.join(
      [
        sql`pd.hospital_id = ${hospitalId} and pd.deleted_at is null`,
        f.patient ? sql`pd.patient_id = ${f.patient}` : null,
        f.category ? sql`pd.category = ${f.category}` : null,
        f.uploaded_by ? sql`pd.uploaded_by = ${f.uploaded_by}` : null,
        f.date_from ? sql`pd.uploaded_at >= ${f.date_from}::date` : null,
        f.date_to ? sql`pd.uploaded_at < ${f.date_to}::date + 1` : null,
      ].filter((c) => c !== null),
      sql` and `,
    );
    const [rows, count] = await Promise.all([
      this.app.db.execute<Row>(
        sql`${SELECT} where ${where} order by pd.uploaded_at desc, pd.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
      ),
      this.app.db.execute<{ n: number }>(
        sql`select count(*)::int as n from patient_documents pd where ${where}`,
      ),
    ]);
    await this.app.audit.record(
      ctx,
      listReadEntry('patient_document.list', 'patient_document', f, page, rows.rows.length),
    );
    return { count: Number(count.rows[0]!.n), rows: rows.rows.map((r) => this.view(ctx, r)) };
  }

  async remove(ctx: ServiceContext, id: string, reason: string): Promise<TPatientDocument> {
    return this.app.db.transaction(async (tx) => {
      const row = await this.find(tx, ctx, id, true);
      if (!this.mayDelete(ctx, row.uploaded_by)) throw forbidden('documents.not_uploader');
      await tx.execute(sql`update patient_documents set deleted_at = now(), deleted_by = ${actingUser(ctx).id},
          delete_reason = ${reason}, updated_at = now() where id = ${id} and deleted_at is null`);
      await this.app.audit.record(
        ctx,
        {
          action: 'patient_document.delete',
          resourceType: 'patient_document',
          resourceId: id,
          patientId: row.p_id,
          details: { reason },
        },
        tx,
      );
      return { ...this.view(ctx, row), can: { delete: false } };
    });
  }
}
