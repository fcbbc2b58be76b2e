/**
 * Notes and dictation (issue 23, decision 0034). A note is personal (only its author sees it) or about a patient
 * (those who may read the patient's clinical record see it). The body is a small safe Markdown (`#` headings,
 * paragraphs, `**bold**`, `*italic*`, `- ` and `1. ` lists): rendered as text elements, never as HTML.
 */
import { z } from 'zod';
import { ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

export const NOTE_TITLE_MAX = 200;
export const NOTE_BODY_MAX = 20_000;
export const NOTE_TAGS_MAX = 10;
export const NOTE_TAG_MAX = 40;

const ZTag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(NOTE_TAG_MAX)
  .regex(/^[\p{L}\p{N}_-]+(?: [\p{L}\p{N}_-]+)*$/u, 'notes.tag_invalid');

const noteFields = {
  title: z.string().trim().min(1).max(NOTE_TITLE_MAX),
  body: z.string().max(NOTE_BODY_MAX).default(''),
  tags: z
    .array(ZTag)
    .max(NOTE_TAGS_MAX)
    .default([])
    .transform((t) => [...new Set(t)]),
  pinned: z.boolean().default(false),
};

/** A new note: personal on `/api/notes/`, about the patient of the path on `/api/patients/{id}/notes/`. */
export const ZNoteCreate = z.strictObject(noteFields);
export type TNoteCreate = z.input<typeof ZNoteCreate>;

/** A change of some fields (by the author only). */
export const ZNoteUpdate = z
  .strictObject({
    title: noteFields.title,
    body: z.string().max(NOTE_BODY_MAX),
    tags: z.array(ZTag).max(NOTE_TAGS_MAX),
    pinned: z.boolean(),
  })
  .partial();
export type TNoteUpdate = z.input<typeof ZNoteUpdate>;

export const ZNote = z.object({
  id: z.uuid(),
  kind: z.enum(['personal', 'patient']),
  /** The patient of a patient note; null for a personal one. */
  patient: ZPatientRef.nullable(),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  pinned: z.boolean(),
  author: ZPersonRef,
  created_at: zDateTime,
  updated_at: zDateTime,
  can: z.object({ edit: z.boolean() }),
});
export type TNote = z.infer<typeof ZNote>;
export const ZNoteList = zPage(ZNote);

/** Search in the title, the body and the tags; one tag; pinned only. Pinned notes come first, then the newest. */
export const ZNoteQuery = ZPageQuery.extend({
  ...zSearch({ max: 200 }),
  tag: z.string().trim().toLowerCase().max(NOTE_TAG_MAX).optional(),
  pinned: zQueryBoolean.optional(),
});

export const NOTE_ERROR_CODES = [
  /** 403: only its author changes or deletes a patient note. */
  'notes.not_author',
  /** 400 `tags`: letters, digits, `-`, `_` and single spaces. */
  'notes.tag_invalid',
] as const;

// Dictation -------------------------------------------------------------------------------------------------

/** The largest recording the server takes (about 10 minutes of Opus speech). */
export const DICTATION_MAX_BYTES = 8 * 1024 * 1024;
export const DICTATION_LANGUAGES = ['fr', 'en'] as const;
export const DICTATION_AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/wav', 'audio/mp4'] as const;

/** The text fields of the multipart upload (the `audio` part is the recording). */
export const ZDictationFields = z.strictObject({
  language: z.enum(DICTATION_LANGUAGES).default('fr'),
  /** The patient the dictation is about: where the recording is kept when no engine could type it. */
  patient: z.uuid().optional(),
  /** Where the text was meant to go (shown on the pending list), e.g. "Consultation — examen". */
  context: z.string().trim().max(200).optional(),
});
export type TDictationFields = z.input<typeof ZDictationFields>;

/**
 * `transcribed`: the hospital's speech-to-text service typed it (`text`); `stored`: no service, or it failed — the
 * audio is kept as a document of the patient (`recording`) to be typed later; `unavailable`: neither (no service
 * and no patient to keep it with).
 */
export const ZDictationResult = z.object({
  status: z.enum(['transcribed', 'stored', 'unavailable']),
  text: z.string().nullable(),
  recording: z.uuid().nullable(),
});
export type TDictationResult = z.infer<typeof ZDictationResult>;

export const ZDictationRecording = z.object({
  id: z.uuid(),
  patient: ZPatientRef,
  /** The patient document holding the audio (played with `/api/patient-documents/{id}/file/`). */
  document: z.uuid(),
  language: z.enum(DICTATION_LANGUAGES),
  context: z.string().nullable(),
  size_bytes: z.number().int(),
  created_at: zDateTime,
  typed_at: zDateTime.nullable(),
});
export type TDictationRecording = z.infer<typeof ZDictationRecording>;
export const ZDictationRecordingList = zPage(ZDictationRecording);
export const ZDictationRecordingQuery = ZPageQuery.extend({
  /** Pending (not typed yet) by default. */
  typed: zQueryBoolean.optional(),
});

/** What the web app needs to offer dictation: the hospital's switch and whether the server can transcribe. */
export const ZDictationConfig = z.object({
  browser_enabled: z.boolean(),
  server_transcription: z.boolean(),
  max_bytes: z.number().int(),
});
export type TDictationConfig = z.infer<typeof ZDictationConfig>;
