import { ZIdParams } from '@greensen/shared/contracts/common';
import { ZNote, ZNoteCreate, ZNoteList, ZNoteQuery, ZNoteUpdate } from '@greensen/shared/contracts/notes';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { NotesService } from './notes.service.js';

defineMessages({
  'notes.not_author': {
    fr: 'Seul l’auteur de la note peut la modifier ou la supprimer.',
    en: 'Only the note’s author may change or delete it.',
  },
  'notes.tag_invalid': {
    fr: 'Une étiquette contient des lettres, des chiffres, « - » ou « _ » (40 caractères au plus).',
    en: 'A tag holds letters, digits, "-" or "_" (40 characters at most).',
  },
});

/**
 * Notes (issue 23, decision 0034): `/api/notes/` are the caller's personal notes (every member has their own);
 * `/api/patients/{id}/notes/` and `/api/patient-notes/{id}/` are notes about a patient, read by the readers of the
 * patient's clinical record and written by the clinical staff. No module: notes belong to every installation.
 */
export async function notesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new NotesService(app);
  const tags = ['notes'];
  const everyone = { access: { scope: 'hospital', module: null, roles: 'any' } } as const;
  const readers = {
    access: { scope: 'hospital', module: null, roles: ACTION_GROUPS['patient_note.read'] },
  } as const;
  const writers = {
    access: { scope: 'hospital', module: null, roles: ACTION_GROUPS['patient_note.write'] },
  } as const;

  r.get(
    '/api/notes/',
    {
      config: everyone,
      schema: {
        tags,
        summary: "The caller's personal notes: pinned first, then the latest changed; search, tag, pinned",
        querystring: ZNoteQuery,
        response: { 200: ZNoteList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await service.listPersonal(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/notes/',
    {
      config: everyone,
      schema: { tags, summary: 'A new personal note', body: ZNoteCreate, response: { 201: ZNote } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(contextOf(request), request.body, null)),
  );

  r.get(
    '/api/notes/:id/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'One of the caller’s personal notes',
        params: ZIdParams,
        response: { 200: ZNote },
      },
    },
    async (request) => service.readPersonal(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/notes/:id/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Changes a personal note (title, body, tags, pinned)',
        params: ZIdParams,
        body: ZNoteUpdate,
        response: { 200: ZNote },
      },
    },
    async (request) => service.updatePersonal(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/notes/:id/delete/',
    {
      config: everyone,
      schema: { tags, summary: 'Deletes a personal note', params: ZIdParams, response: { 200: ZNote } },
    },
    async (request) => service.removePersonal(contextOf(request), request.params.id),
  );

  r.get(
    '/api/patients/:id/notes/',
    {
      config: readers,
      schema: {
        tags,
        summary: "Notes about a patient (readers of the patient's clinical record)",
        params: ZIdParams,
        querystring: ZNoteQuery,
        response: { 200: ZNoteList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await service.listPatient(
        contextOf(request),
        request.params.id,
        f,
        page,
        page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/patients/:id/notes/',
    {
      config: writers,
      schema: {
        tags,
        summary: 'A new note about a patient',
        params: ZIdParams,
        body: ZNoteCreate,
        response: { 201: ZNote },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(contextOf(request), request.body, request.params.id)),
  );

  r.patch(
    '/api/patient-notes/:id/',
    {
      config: writers,
      schema: {
        tags,
        summary: 'Changes a note about a patient (its author)',
        params: ZIdParams,
        body: ZNoteUpdate,
        response: { 200: ZNote },
      },
    },
    async (request) => service.updatePatientNote(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/patient-notes/:id/delete/',
    {
      config: writers,
      schema: {
        tags,
        summary: 'Deletes a note about a patient (its author)',
        params: ZIdParams,
        response: { 200: ZNote },
      },
    },
    async (request) => service.removePatientNote(contextOf(request), request.params.id),
  );
}
