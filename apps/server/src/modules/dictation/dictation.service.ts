import {
  DICTATION_MAX_BYTES,
  type TDictationConfig,
  type TDictationFields,
  type TDictationRecording,
  type TDictationResult,
  ZDictationFields,
} from '@greensen/shared/contracts/notes';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../db/schema/common.js';
import { iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import { PatientDocumentsService } from '../documents/patient-documents.service.js';
import { findHospitalSettings } from '../hospital-settings/hospital-settings.repository.js';
import { patientInHospital } from '../patients/patients.repository.js';
import { audioTypeOf } from './audio.js';
import {
  insertRecording,
  listRecordings,
  markRecordingTyped,
  type RecordingRow,
} from './dictation.repository.js';

/** How long the hospital's speech-to-text service may take before the recording is kept instead. */
const TRANSCRIPTION_TIMEOUT_MS = 60_000;

export const audioTooLarge = () => new ApiError(413, 'dictation.audio_too_large');

/**
 * Dictation on the server (issue 23, decision 0034). The browser's own recognition never reaches this service.
 * A recording is sent to the hospital's speech-to-text service (`TRANSCRIPTION_URL`): `POST <url>?language=fr`
 * with the audio as the body and its type as `Content-Type`, answering `{"text": "…"}`. Without the service, or
 * when it fails, the audio is kept as a document of the patient (category `dictation`) and waits in its author's
 * list until it is typed.
 */
export class DictationService {
  private readonly documents: PatientDocumentsService;
  constructor(private readonly app: FastifyInstance) {
    this.documents = new PatientDocumentsService(app);
  }

  async config(ctx: ServiceContext): Promise<TDictationConfig> {
    const settings = await findHospitalSettings(this.app.db, scopedHospital(ctx).id);
    return {
      browser_enabled: settings.dictation_browser_enabled,
      server_transcription: Boolean(this.app.config.transcriptionUrl),
      max_bytes: DICTATION_MAX_BYTES,
    };
  }

  /** The service's text, or null when there is no service or it failed (logged, never shown to the caller). */
  private async transcribeRemotely(ctx: ServiceContext, bytes: Buffer, type: string, language: string) {
    const base = this.app.config.transcriptionUrl;
    if (!base) return null;
    try {
      const url = new URL(base);
      url.searchParams.set('language', language);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': type, accept: 'application/json' },
        body: bytes,
        signal: AbortSignal.timeout(TRANSCRIPTION_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`transcription service answered ${res.status}`);
      const body = (await res.json()) as { text?: unknown };
      if (typeof body.text !== 'string') throw new Error('transcription service answered without a text');
      return body.text.trim();
    } catch (err) {
      ctx.log.warn({ err }, 'dictation: the transcription service failed; the recording is kept instead');
      return null;
    }
  }

  async transcribe(
    ctx: ServiceContext,
    raw: TDictationFields,
    audio: { name: string | undefined; bytes: Buffer },
  ): Promise<TDictationResult> {
    const fields = ZDictationFields.parse(raw);
    const hospitalId = scopedHospital(ctx).id;
    if (audio.bytes.length === 0) throw badRequest({ audio: ['dictation.audio_missing'] });
    if (audio.bytes.length > DICTATION_MAX_BYTES) throw audioTooLarge();
    const type = audioTypeOf(audio.bytes);
    if (!type) throw badRequest({ audio: ['dictation.audio_type'] });
    if (fields.patient) {
      if (!(await patientInHospital(this.app.db, hospitalId, fields.patient)))
        throw badRequest({ patient: ['documents.patient_unknown'] });
    }
    const text = await this.transcribeRemotely(ctx, audio.bytes, type, fields.language);
    if (text !== null) {
      await this.app.audit.record(ctx, {
        action: 'dictation.transcribe',
        resourceType: 'dictation',
        resourceId: null,
        ...(fields.patient ? { patientId: fields.patient } : {}),
        details: { language: fields.language, size: audio.bytes.length, content_type: type },
      });
      return { status: 'transcribed', text, recording: null };
    }
    if (!fields.patient) return { status: 'unavailable', text: null, recording: null };
    const recording = uuidv7();
    await this.documents.upload(
      ctx,
      {
        patient: fields.patient,
        category: 'dictation',
        description: fields.context ?? null,
      },
      { name: audio.name ?? `dictee.${type.split('/')[1]}`, bytes: audio.bytes },
      {
        type,
        within: async (tx, documentId) => {
          await insertRecording(tx, {
            id: recording,
            hospitalId,
            authorId: actingUser(ctx).id,
            patientId: fields.patient!,
            documentId,
            language: fields.language,
            context: fields.context ?? null,
            sizeBytes: audio.bytes.length,
          });
        },
      },
    );
    return { status: 'stored', text: null, recording };
  }

  private view(r: RecordingRow): TDictationRecording {
    return {
      id: r.id,
      patient: patientRef(r),
      document: r.document_id,
      language: r.language,
      context: r.context,
      size_bytes: Number(r.size_bytes),
      created_at: isoRequired(r.created_at),
      typed_at: iso(r.typed_at),
    };
  }

  /** The caller's own recordings in this hospital: waiting to be typed by default. */
  async recordings(ctx: ServiceContext, typed: boolean, page: number, pageSize: number) {
    const { count, rows } = await listRecordings(
      this.app.db,
      scopedHospital(ctx).id,
      actingUser(ctx).id,
      typed,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, {
      action: 'dictation_recording.list',
      resourceType: 'dictation_recording',
      details: { filters: { typed }, page, results: rows.length },
    });
    return { count, rows: rows.map((r) => this.view(r)) };
  }

  /** The caller marks one of their recordings typed (it leaves the pending list; the document stays). */
  async markTyped(ctx: ServiceContext, id: string): Promise<TDictationRecording> {
    return this.app.db.transaction(async (tx) => {
      const row = await markRecordingTyped(tx, scopedHospital(ctx).id, actingUser(ctx).id, id);
      if (!row) throw notFound();
      await this.app.audit.record(
        ctx,
        {
          action: 'dictation_recording.typed',
          resourceType: 'dictation_recording',
          resourceId: id,
          patientId: row.p_id,
        },
        tx,
      );
      return this.view(row);
    });
  }
}
