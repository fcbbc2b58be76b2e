import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id } from './common.js';

/**
 * Append-only audit trail. UPDATE and DELETE are refused by a trigger (see the migration
 * `audit_append_only`), on PGlite and PostgreSQL alike.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    roleCode: text('role_code'),
    hospitalId: uuid('hospital_id'),
    patientId: uuid('patient_id'),
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    outcome: text('outcome').notNull().default('success'),
    ip: text('ip'),
    requestId: text('request_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_hospital_time_idx').on(t.hospitalId, t.occurredAt),
    index('audit_user_time_idx').on(t.userId, t.occurredAt),
    index('audit_patient_time_idx').on(t.patientId, t.occurredAt),
    // The administrators' audit API filters (GET /api/admin/audit/): by action, by resource.
    index('audit_hospital_action_time_idx').on(t.hospitalId, t.action, t.occurredAt),
    index('audit_hospital_resource_idx').on(t.hospitalId, t.resourceType, t.resourceId, t.occurredAt),
  ],
);
