import multipart from '@fastify/multipart';
import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  DICTATION_MAX_BYTES,
  ZDictationConfig,
  ZDictationFields,
  ZDictationRecording,
  ZDictationRecordingList,
  ZDictationRecordingQuery,
  ZDictationResult,
} from '@greensen/shared/contracts/notes';
import { SPECIFICATION_GROUPS } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { ApiError, badRequest } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { audioTooLarge, DictationService } from './dictation.service.js';

defineMessages({
  'dictation.audio_missing': {
    fr: 'Aucun enregistrement reçu.',
    en: 'No recording was received.',
  },
  'dictation.audio_type': {
    fr: 'L’enregistrement doit être un fichier audio WebM, Ogg, WAV ou MP4.',
    en: 'The recording must be a WebM, Ogg, WAV or MP4 audio file.',
  },
  'dictation.audio_too_large': {
    fr: 'L’enregistrement dépasse 8 Mo : dictez en plusieurs fois.',
    en: 'The recording is over 8 MB: dictate in several parts.',
  },
});

/**
 * Dictation (issue 23, decision 0034): what the web app needs to offer it, the server-side transcription of a
 * recording (or its keeping as a patient document), and the caller's recordings waiting to be typed. Every member
 * may dictate (every member adds documents to a patient's record); the recordings are each author's own.
 */
export async function dictationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new DictationService(app);
  const tags = ['dictation'];
  const everyone = { access: { scope: 'hospital', module: null, roles: 'any' } } as const;
  // A transcription adds a document to a patient's record: not the pharmacist's or the cashier's (decision 0070).
  const recorders = { access: { scope: 'hospital', module: null, roles: SPECIFICATION_GROUPS } } as const;

  r.get(
    '/api/dictation/config/',
    {
      config: everyone,
      schema: {
        tags,
        summary: "Whether the hospital allows the browser's recognition and whether the server transcribes",
        response: { 200: ZDictationConfig },
      },
    },
    async (request) => service.config(contextOf(request)),
  );

  r.get(
    '/api/dictation/recordings/',
    {
      config: everyone,
      schema: {
        tags,
        summary: "The caller's recordings waiting to be typed (`typed=true`: those already typed)",
        querystring: ZDictationRecordingQuery,
        response: { 200: ZDictationRecordingList },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, count } = await service.recordings(
        contextOf(request),
        q.typed ?? false,
        q.page,
        q.page_size,
      );
      return pageOf(request, q, count, rows);
    },
  );

  r.post(
    '/api/dictation/recordings/:id/typed/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Marks one of the caller’s recordings as typed',
        params: ZIdParams,
        response: { 200: ZDictationRecording },
      },
    },
    async (request) => service.markTyped(contextOf(request), request.params.id),
  );

  // Multipart only in this route's scope: the rest of the API speaks JSON only.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: DICTATION_MAX_BYTES,
        files: 1,
        fields: 4,
        fieldSize: 1000,
        parts: 5,
        headerPairs: 50,
      },
      throwFileSizeLimit: true,
    });
    const s = scope.withTypeProvider<ZodTypeProvider>();
    s.post(
      '/api/dictation/transcriptions/',
      {
        config: recorders,
        schema: {
          tags,
          summary:
            'Transcribes a recording with the hospital’s speech-to-text service, or keeps it as a document of the patient (multipart: audio, language, patient, context)',
          response: { 200: ZDictationResult },
        },
      },
      async (request) => {
        const ctx = contextOf(request);
        if (!request.isMultipart()) throw badRequest({ audio: ['dictation.audio_missing'] });
        const fields: Record<string, string> = {};
        let audio: { name: string; bytes: Buffer } | null = null;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'audio' || audio) {
                await part.toBuffer();
                throw badRequest({ audio: ['dictation.audio_missing'] });
              }
              audio = { name: part.filename, bytes: await part.toBuffer() };
            } else if (typeof part.value === 'string' && part.value !== '')
              fields[part.fieldname] = part.value;
          }
        } catch (err) {
          if (err instanceof ApiError) throw err;
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw audioTooLarge();
          throw badRequest({ audio: ['dictation.audio_missing'] });
        }
        const parsed = ZDictationFields.safeParse(fields);
        if (!parsed.success) throw Object.assign(new Error('validation'), { zodIssues: parsed.error.issues });
        if (!audio) throw badRequest({ audio: ['dictation.audio_missing'] });
        return service.transcribe(ctx, parsed.data, audio);
      },
    );
  });
}
