import { createHash } from 'node:crypto';
import type { TPatientDocument, TPatientDocumentFields } from '@greensen/shared/contracts/documents';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { documentTypeOf } from '../../lib/images.js';
import { listReadEntry } from '../../lib/queries.js';
import { findHospitalSettings } from '../hospital-settings/hospital-settings.repository.js';
import { patientInHospital } from '../patients/patients.repository.js';
import {
  findPatientDocument,
  insertPatientDocument,
  listPatientDocuments,
  markPatientDocumentDeleted,
  type PatientDocumentFilters,
  type PatientDocumentRow,
} from './patient-documents.repository.js';

/** The extensions of each recognised type, the first one given to a name that has none of them. */
const EXTENSIONS: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
};

/**
 * The stored name of an upload: its last path segment without control characters or quotes, and the extension of
 * the type recognised from its bytes (issue 36: a PDF sent as `poly.html` is stored as `poly.pdf`, so that no
 * download is ever named as a type it is not).
 */
export function cleanFileName(name: string | undefined, type: string): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned =
    [...last]
      .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"')
      .join('')
      .trim()
      .slice(0, 190) || 'document';
  const extensions = EXTENSIONS[type] ?? [];
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 ? cleaned.slice(dot + 1).toLowerCase() : '';
  if (extensions.includes(ext) || extensions.length === 0) return cleaned;
  const stem = dot > 0 && /^[a-z0-9]{1,8}$/i.test(ext) ? cleaned.slice(0, dot) : cleaned;
  return `${stem}.${extensions[0]}`;
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

  private view(ctx: ServiceContext, r: PatientDocumentRow): TPatientDocument {
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
    const row = await findPatientDocument(q, scopedHospital(ctx).id, id, lock);
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
    if (!(await patientInHospital(this.app.db, hospital.id, fields.patient)))
      throw badRequest({ patient: ['documents.patient_unknown'] });
    const id = uuidv7();
    const key = `patient-documents/${hospital.id}/${id}`;
    await this.app.db.transaction(async (tx) => {
      await insertPatientDocument(tx, {
        id,
        hospitalId: hospital.id,
        patientId: fields.patient,
        category: fields.category,
        documentDate: fields.document_date ?? null,
        description: fields.description ?? null,
        fileName: cleanFileName(file.name, type),
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

  async list(ctx: ServiceContext, f: PatientDocumentFilters, page: number, pageSize: number) {
    const { count, rows } = await listPatientDocuments(
      this.app.db,
      scopedHospital(ctx).id,
      f,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(
      ctx,
      listReadEntry('patient_document.list', 'patient_document', f, page, rows.length),
    );
    return { count, rows: rows.map((r) => this.view(ctx, r)) };
  }

  async remove(ctx: ServiceContext, id: string, reason: string): Promise<TPatientDocument> {
    return this.app.db.transaction(async (tx) => {
      const row = await this.find(tx, ctx, id, true);
      if (!this.mayDelete(ctx, row.uploaded_by)) throw forbidden('documents.not_uploader');
      await markPatientDocumentDeleted(tx, id, actingUser(ctx).id, reason);
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
