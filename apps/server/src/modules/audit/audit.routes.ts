import { Readable } from 'node:stream';
import {
  AUDIT_EXPORT_MAX_ROWS,
  ZAuditExportQuery,
  ZAuditList,
  ZAuditQuery,
  ZPatientAccessList,
} from '@greensen/shared/contracts/audit';
import { ZIdParams, ZPageQuery } from '@greensen/shared/contracts/common';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { CSV_BOM, csvLine } from '../../lib/csv.js';
import { notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { patientInHospital } from '../patients/patients.repository.js';
import { type AuditEvent, auditBatches, listAudit, listPatientAccess } from './audit.repository.js';

/** The columns of the CSV export, in order. */
const CSV_COLUMNS = [
  'occurred_at',
  'actor',
  'user_email',
  'role_code',
  'action',
  'outcome',
  'resource_type',
  'resource_id',
  'patient_record_number',
  'patient_name',
  'ip',
  'request_id',
] as const;

function actorName(e: AuditEvent): string {
  if (e.actor.kind === 'user') return e.actor.full_name;
  if (e.actor.kind === 'system')
    return e.actor.on_behalf_of ? `${e.actor.source} (${e.actor.on_behalf_of.full_name})` : e.actor.source;
  return '';
}

const csvRow = (e: AuditEvent) =>
  csvLine([
    e.occurred_at,
    actorName(e),
    e.user?.email ?? '',
    e.role_code,
    e.action,
    e.outcome,
    e.resource_type,
    e.resource_id,
    e.patient?.record_number,
    e.patient?.full_name,
    e.ip,
    e.request_id,
  ]);

defineMessages({
  'audit.action_invalid': {
    fr: 'Action invalide : « patient.read » ou une famille « patient.* ».',
    en: 'Invalid action: "patient.read" or a family "patient.*".',
  },
  'audit.resource_invalid': { fr: 'Type de ressource invalide.', en: 'Invalid resource type.' },
});

/**
 * The audit trail of the current hospital, for its administrators (issue 8). Like the maintenance switch
 * (decision 0002) it belongs to no module, so that it works in production too. Reading it is audited.
 */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/audit/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ['admin'] } },
      schema: {
        tags: ['admin'],
        summary:
          'Audit rows of the hospital, newest first; filters user, patient, action (or family `patient.*`), ' +
          'outcome, resource (+ resource_id), from/to',
        querystring: ZAuditQuery,
        response: { 200: ZAuditList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const hospitalId = request.hospital!.id;
      const result = await app.db.transaction(async (tx) => {
        const found = await listAudit(tx, hospitalId, filters, page_size, (page - 1) * page_size);
        await app.audit.record(
          contextOf(request),
          {
            action: 'audit.search',
            resourceType: 'audit',
            patientId: filters.patient ?? null,
            details: { ...filters, page, results: found.rows.length },
          },
          tx,
        );
        return found;
      });
      return pageOf(request, request.query, result.count, result.rows, { countCapped: result.capped });
    },
  );

  r.get(
    '/api/admin/audit/export/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ACTION_GROUPS['audit.read'] } },
      schema: {
        tags: ['admin'],
        summary: `The filtered audit rows as CSV (UTF-8, newest first, at most ${AUDIT_EXPORT_MAX_ROWS}), streamed`,
        description:
          'Cells a spreadsheet would run as formulas (starting with = + - @) are prefixed with a single quote.',
        querystring: ZAuditExportQuery,
      },
    },
    async (request, reply) => {
      const filters = request.query;
      const hospital = request.hospital!;
      await app.audit.record(contextOf(request), {
        action: 'audit.export',
        resourceType: 'audit',
        patientId: filters.patient ?? null,
        details: { ...filters },
      });
      const db = app.db;
      async function* lines() {
        yield CSV_BOM + csvLine(CSV_COLUMNS);
        for await (const batch of auditBatches(db, hospital.id, filters, AUDIT_EXPORT_MAX_ROWS))
          yield batch.map(csvRow).join('');
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${hospital.code}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );

  r.get(
    '/api/patients/:id/access-log/',
    {
      // Administrators and head doctors (decision 0020): who opened this record, from the audit trail.
      config: {
        access: { scope: 'hospital', module: 'patients', roles: ACTION_GROUPS['patient.access_log'] },
      },
      schema: {
        tags: ['patients'],
        summary: "Who opened the patient's record: the reads of the patient and their records, newest first",
        params: ZIdParams,
        querystring: ZPageQuery,
        response: { 200: ZPatientAccessList },
      },
    },
    async (request) => {
      const hospitalId = request.hospital!.id;
      const { id } = request.params;
      const { page, page_size } = request.query;
      const result = await app.db.transaction(async (tx) => {
        if (!(await patientInHospital(tx, hospitalId, id))) throw notFound();
        const log = await listPatientAccess(tx, hospitalId, id, page_size, (page - 1) * page_size);
        await app.audit.record(
          contextOf(request),
          {
            action: 'patient.access_log',
            resourceType: 'patient',
            resourceId: id,
            patientId: id,
            details: { page, results: log.rows.length },
          },
          tx,
        );
        return log;
      });
      return pageOf(request, request.query, result.count, result.rows, { countCapped: result.capped });
    },
  );
}
