import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ISSUERS_ANY,
  TEMPLATE_MANAGERS,
  ZDocument,
  ZDocumentCancel,
  ZDocumentDraft,
  ZDocumentDraftCreate,
  ZDocumentIssue,
  ZDocumentList,
  ZDocumentQuery,
  ZDocumentTemplate,
  ZDocumentVerification,
  ZFileQuery,
  ZPatientDocument,
  ZPatientDocumentFields,
  ZPatientDocumentList,
  ZPatientDocumentQuery,
  ZTemplateCreate,
  ZTemplateList,
  ZTemplatePreview,
  ZTemplatePreviewResult,
  ZTemplateQuery,
  ZTemplateUpdate,
  ZTemplateVariables,
  ZTemplateVariablesQuery,
  ZVerifyParams,
} from '@greensen/shared/contracts/documents';
import { UPLOAD_MAX_MB_MAX } from '@greensen/shared/contracts/hospital-settings';
import { type DashboardGroup, SPECIFICATION_GROUPS } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { readUpload, registerUploads, sendFile } from '../../lib/uploads.js';
import { DocumentsService } from './documents.service.js';
import { fileTooLarge, PatientDocumentsService } from './patient-documents.service.js';

defineMessages({
  'documents.template_error': {
    fr: 'Ligne {line}, colonne {column} : {reason}',
    en: 'Line {line}, column {column}: {reason}',
  },
  'documents.template_reason.syntax': {
    fr: 'balise ou expression mal formée (une balise ouverte doit être fermée).',
    en: 'malformed tag or expression (an opened tag must be closed).',
  },
  'documents.template_reason.unknown_tag': { fr: 'balise inconnue.', en: 'unknown tag.' },
  'documents.template_reason.forbidden_tag': {
    fr: 'balise interdite : un modèle ne peut inclure ni lire aucun fichier.',
    en: 'forbidden tag: a model can neither include nor read any file.',
  },
  'documents.template_reason.unknown_filter': { fr: 'filtre inconnu.', en: 'unknown filter.' },
  'documents.template_reason.unknown_variable': {
    fr: 'variable inconnue : seules les variables du type de document sont disponibles.',
    en: 'unknown variable: only the variables of the document kind are available.',
  },
  'documents.template_reason.limit_exceeded': {
    fr: 'modèle trop long, trop lent ou produisant un texte trop long.',
    en: 'model too long, too slow or producing too much text.',
  },
  'documents.template_shipped': {
    fr: 'Les modèles fournis par Greensen ne se modifient pas : copiez-le pour l’adapter.',
    en: "Greensen's models cannot be changed: copy it to adapt it.",
  },
  'documents.template_archived': { fr: 'Ce modèle est archivé.', en: 'This model is archived.' },
  'documents.stale_version': {
    fr: 'Le modèle a été modifié entre-temps (version {version}). Rechargez-le.',
    en: 'The model was changed in the meantime (version {version}). Reload it.',
  },
  'documents.template_kind': {
    fr: "Ce modèle n'est pas de ce type de document, ou il est archivé.",
    en: 'This model is not of this document kind, or it is archived.',
  },
  'documents.source_kind': {
    fr: 'Ce type de document ne s’imprime pas depuis cette source.',
    en: 'This kind of document is not printed from this source.',
  },
  'documents.source_unknown': {
    fr: "Cette source n'existe pas dans l'hôpital ou ne s'imprime pas (brouillon, annulée, non validée).",
    en: 'No such source in the hospital, or it cannot be printed (draft, cancelled, not validated).',
  },
  'documents.kind_forbidden': {
    fr: "Votre rôle n'établit pas ce type de document.",
    en: 'Your role does not issue this kind of document.',
  },
  'documents.not_editable': {
    fr: 'Ce type de document s’imprime tel qu’il est généré : son texte ne se modifie pas.',
    en: 'This kind of document is printed as generated: its text cannot be edited.',
  },
  'documents.already_cancelled': {
    fr: 'Ce document est déjà annulé.',
    en: 'This document is already cancelled.',
  },
  'documents.not_author': {
    fr: "Seul l'auteur du document, un médecin chef ou un administrateur peut l'annuler.",
    en: 'Only the author of the document, a head doctor or an administrator may cancel it.',
  },
  'documents.not_uploader': {
    fr: "Seule la personne qui l'a ajouté, un médecin chef ou un administrateur peut supprimer ce document.",
    en: 'Only the person who added it, a head doctor or an administrator may delete this document.',
  },
  'documents.patient_unknown': { fr: "Ce patient n'existe pas dans l'hôpital.", en: 'No such patient here.' },
  'documents.file_type': {
    fr: 'Type de fichier refusé : seuls les images JPEG, PNG, WebP, HEIC et les PDF sont acceptés (reconnus par leur contenu).',
    en: 'File type refused: only JPEG, PNG, WebP and HEIC images and PDFs are accepted (recognised by their content).',
  },
  'documents.file_too_large': {
    fr: 'Le fichier dépasse la taille maximale fixée par l’hôpital.',
    en: "The file is larger than the hospital's maximum size.",
  },
  'documents.file_missing': {
    fr: 'Joignez un fichier (formulaire multipart avec un champ « file »).',
    en: 'Attach a file (a multipart form with a "file" field).',
  },
});

/** Documents are read by the specification's groups, not the pharmacist or the cashier (decision 0070). */
const ALL: readonly DashboardGroup[] = SPECIFICATION_GROUPS;
const CANCELLERS: readonly DashboardGroup[] = [...ISSUERS_ANY];

const ZStale = z.object({ detail: z.string(), code: z.string(), version: z.number().int() });

/**
 * Document models, issued documents with their public verification, and patient documents (issue 19;
 * contracts/documents.ts lists the routes; decision 0023). Models belong to the `templates` module; printing and
 * patient documents to no module (every hospital prints), like the medication reference.
 */
export async function documentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const docs = new DocumentsService(app);
  const templates = docs.templates;
  const uploads = new PatientDocumentsService(app);
  const reading = { access: { scope: 'hospital', module: null, roles: ALL } } as const;
  const managing = { access: { scope: 'hospital', module: 'templates', roles: TEMPLATE_MANAGERS } } as const;
  const issuing = { access: { scope: 'hospital', module: null, roles: ISSUERS_ANY } } as const;
  const tags = ['documents'];

  // Models ------------------------------------------------------------------------------------------------

  r.get(
    '/api/document-templates/',
    {
      config: reading,
      schema: {
        tags,
        summary:
          "Document models: Greensen's (shipped) and the hospital's, filtered by kind, language, origin",
        querystring: ZTemplateQuery,
        response: { 200: ZTemplateList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await templates.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/document-templates/variables/',
    {
      config: reading,
      schema: {
        tags,
        summary: "The variables and filters a kind's model may use, with the demo values",
        querystring: ZTemplateVariablesQuery,
        response: { 200: ZTemplateVariables },
      },
    },
    async (request) => templates.variables(request.query.kind),
  );

  r.post(
    '/api/document-templates/preview/',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Checks a body and renders it with the demo data (400 with the line and reason when refused)',
        body: ZTemplatePreview,
        response: { 200: ZTemplatePreviewResult },
      },
    },
    async (request) => templates.preview(contextOf(request), request.body),
  );

  r.post(
    '/api/document-templates/preview/pdf/',
    {
      config: managing,
      schema: { tags, summary: 'The same preview as a PDF (marked as a preview)', body: ZTemplatePreview },
    },
    async (request, reply) => {
      const bytes = await templates.previewPdf(contextOf(request), request.body);
      return sendFile(reply, { bytes, type: 'application/pdf', fileName: 'apercu.pdf' }, 'inline');
    },
  );

  r.get(
    '/api/document-templates/:id/',
    {
      config: reading,
      schema: {
        tags,
        summary: 'A model with its body',
        params: ZIdParams,
        response: { 200: ZDocumentTemplate },
      },
    },
    async (request) => templates.get(contextOf(request), request.params.id),
  );

  r.post(
    '/api/document-templates/',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'A hospital model (a copy of `based_on` adapted); the body is checked (400 with line and reason)',
        body: ZTemplateCreate,
        response: { 201: ZDocumentTemplate },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await templates.create(contextOf(request), request.body)),
  );

  r.patch(
    '/api/document-templates/:id/',
    {
      config: managing,
      schema: {
        tags,
        summary: "Changes a hospital model (409 for Greensen's, or with the current version when stale)",
        params: ZIdParams,
        body: ZTemplateUpdate,
        response: { 200: ZDocumentTemplate, 409: ZStale },
      },
    },
    async (request, reply) => {
      const result = await templates.update(contextOf(request), request.params.id, request.body);
      if ('stale' in result)
        return reply.status(409).send({
          detail: translate(requestLang(request), 'documents.stale_version', { version: result.version }),
          code: 'stale_version',
          version: result.version,
        });
      return result;
    },
  );

  r.post(
    '/api/document-templates/:id/activate/',
    {
      config: managing,
      schema: {
        tags,
        summary:
          "The hospital's model of its kind and language from now on (a shipped one: Greensen's again)",
        params: ZIdParams,
        response: { 200: ZDocumentTemplate },
      },
    },
    async (request) => templates.activate(contextOf(request), request.params.id),
  );

  r.post(
    '/api/document-templates/:id/archive/',
    {
      config: managing,
      schema: {
        tags,
        summary: 'Archives a hospital model (no longer offered; documents made with it keep its name)',
        params: ZIdParams,
        response: { 200: ZDocumentTemplate },
      },
    },
    async (request) => templates.archive(contextOf(request), request.params.id),
  );

  // Issued documents ----------------------------------------------------------------------------------------

  r.post(
    '/api/documents/draft/',
    {
      config: issuing,
      schema: {
        tags,
        summary:
          'Renders a document from its source with a model (nothing stored); editable kinds are edited then issued',
        body: ZDocumentDraftCreate,
        response: { 200: ZDocumentDraft },
      },
    },
    async (request) => docs.draft(contextOf(request), request.body),
  );

  r.post(
    '/api/documents/',
    {
      config: issuing,
      schema: {
        tags,
        summary: 'Issues a document: numbered, signed by the caller, its PDF stored once (with its SHA-256)',
        body: ZDocumentIssue,
        response: { 201: ZDocument },
      },
    },
    async (request, reply) => reply.status(201).send(await docs.issue(contextOf(request), request.body)),
  );

  r.get(
    '/api/documents/',
    {
      config: reading,
      schema: {
        tags,
        summary:
          'Issued documents by patient, kind, author, status, source, issue date, number or patient name',
        querystring: ZDocumentQuery,
        response: { 200: ZDocumentList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await docs.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/documents/:id/',
    {
      config: reading,
      schema: {
        tags,
        summary: 'An issued document with its text',
        params: ZIdParams,
        response: { 200: ZDocument },
      },
    },
    async (request) => docs.read(contextOf(request), request.params.id),
  );

  r.get(
    '/api/documents/:id/pdf/',
    {
      config: reading,
      schema: {
        tags,
        summary: 'The stored PDF, the same bytes every time (`disposition=inline` to view it)',
        params: ZIdParams,
        querystring: ZFileQuery,
      },
    },
    async (request, reply) => {
      const file = await docs.pdf(contextOf(request), request.params.id, request.query.disposition);
      return sendFile(reply, { ...file, type: 'application/pdf' }, request.query.disposition);
    },
  );

  r.post(
    '/api/documents/:id/cancel/',
    {
      config: { access: { scope: 'hospital', module: null, roles: CANCELLERS } },
      schema: {
        tags,
        summary: 'Cancels a document with a reason (its author, a head doctor or an administrator)',
        params: ZIdParams,
        body: ZDocumentCancel,
        response: { 200: ZDocument },
      },
    },
    async (request) => docs.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/verify/:token/',
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: "Public check of a document's authenticity: kind, number, date, hospital, issuer, validity",
        params: ZVerifyParams,
        response: { 200: ZDocumentVerification },
      },
    },
    async (request) => docs.verify(request.params.token),
  );

  // Patient documents ---------------------------------------------------------------------------------------

  r.get(
    '/api/patient-documents/',
    {
      config: reading,
      schema: {
        tags,
        summary: "Documents added to patients' records, by patient, category, uploader, upload date",
        querystring: ZPatientDocumentQuery,
        response: { 200: ZPatientDocumentList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await uploads.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  // Multipart only in the upload route's own scope: the rest of the API speaks JSON only.
  await app.register(async (scope) => {
    await registerUploads(scope, { maxBytes: UPLOAD_MAX_MB_MAX * 1024 * 1024, fields: 8 });
    const s = scope.withTypeProvider<ZodTypeProvider>();
    s.post(
      '/api/patient-documents/',
      {
        config: reading,
        schema: {
          tags,
          summary:
            'Adds a scan, photo or PDF to a patient record (multipart: patient, category, document_date, description, file)',
          response: { 201: ZPatientDocument },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request);
        const { fields, file } = await readUpload(request, {
          field: 'file',
          maxBytes: await uploads.maxBytes(ctx),
          missing: () => badRequest({ file: ['documents.file_missing'] }),
          tooLarge: fileTooLarge,
        });
        const parsed = ZPatientDocumentFields.safeParse(fields);
        if (!parsed.success) throw Object.assign(new Error('validation'), { zodIssues: parsed.error.issues });
        return reply.status(201).send(await uploads.upload(ctx, parsed.data, file));
      },
    );
  });

  r.get(
    '/api/patient-documents/:id/',
    {
      config: reading,
      schema: { tags, summary: 'A patient document', params: ZIdParams, response: { 200: ZPatientDocument } },
    },
    async (request) => uploads.read(contextOf(request), request.params.id),
  );

  r.get(
    '/api/patient-documents/:id/file/',
    {
      config: reading,
      schema: {
        tags,
        summary: 'The file (a download; `disposition=inline` shows PDFs and images, never anything else)',
        params: ZIdParams,
        querystring: ZFileQuery,
      },
    },
    async (request, reply) => {
      const file = await uploads.file(contextOf(request), request.params.id, request.query.disposition);
      return sendFile(reply, file, request.query.disposition);
    },
  );

  r.post(
    '/api/patient-documents/:id/delete/',
    {
      config: reading,
      schema: {
        tags,
        summary:
          'Deletes a patient document with a reason (kept for the record; the uploader, a head doctor, an admin)',
        params: ZIdParams,
        body: ZDocumentCancel,
        response: { 200: ZPatientDocument },
      },
    },
    async (request) => uploads.remove(contextOf(request), request.params.id, request.body.reason),
  );
}
