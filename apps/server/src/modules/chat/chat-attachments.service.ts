import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { documentTypeOf } from '../../lib/images.js';
import { cleanFileName, fileTooLarge } from '../documents/patient-documents.service.js';
import { findHospitalSettings } from '../hospital-settings/hospital-settings.repository.js';
import { findMessage, findVisibleConversation } from './chat.repository.js';

/** The files attached to chat messages (issue 23, decision 0033): their checks, the upload limit, their reading. */
export class ChatAttachmentsService {
  constructor(private readonly app: FastifyInstance) {}

  /**
   * An attachment's checks, those of patient documents (decision 0023): not empty, within the hospital's upload
   * limit, a JPEG, PNG, WebP, HEIC or PDF recognised by its first bytes (never by its name or declared type).
   */
  async checked(ctx: ServiceContext, messageId: string, file: { name: string | undefined; bytes: Buffer }) {
    const hospital = scopedHospital(ctx);
    if (file.bytes.length === 0) throw badRequest({ file: ['documents.file_missing'] });
    const settings = await findHospitalSettings(this.app.db, hospital.id);
    if (file.bytes.length > settings.upload_max_mb * 1024 * 1024) throw fileTooLarge();
    const type = documentTypeOf(file.bytes);
    if (!type) throw badRequest({ file: ['documents.file_type'] });
    return {
      bytes: file.bytes,
      columns: {
        attachmentName: cleanFileName(file.name, type),
        attachmentType: type,
        attachmentSize: file.bytes.length,
        attachmentSha256: createHash('sha256').update(file.bytes).digest('hex'),
        attachmentKey: `chat/${hospital.id}/${messageId}`,
      },
    };
  }

  /** The upload limit of the hospital, in bytes (the multipart reader stops there). */
  async maxBytes(ctx: ServiceContext) {
    return (await findHospitalSettings(this.app.db, scopedHospital(ctx).id)).upload_max_mb * 1024 * 1024;
  }

  /**
   * An attachment's bytes for a member of its conversation (anyone else: 404, like a missing message); a deleted
   * message's file is gone for everyone. Viewing and downloading are audited.
   */
  async attachment(ctx: ServiceContext, id: string, disposition: 'inline' | 'attachment') {
    const hospital = scopedHospital(ctx);
    const row = await findMessage(this.app.db, hospital.id, id);
    if (!row?.attachment_key || row.deleted_at !== null) throw notFound();
    const c = await findVisibleConversation(
      this.app.db,
      actingUser(ctx).id,
      hospital.id,
      row.conversation_id,
    );
    if (!c) throw notFound();
    const bytes = await this.app.files.get(row.attachment_key);
    if (!bytes) throw new Error(`chat attachment ${id}: stored file missing`);
    await this.app.audit.record(ctx, {
      action: disposition === 'inline' ? 'chat.attachment.view' : 'chat.attachment.download',
      resourceType: 'chat_message',
      resourceId: id,
      details: { conversation: c.id },
    });
    return { bytes, type: row.attachment_type!, fileName: row.attachment_name ?? 'document' };
  }
}
