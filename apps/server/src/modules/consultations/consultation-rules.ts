import {
  type ConsultationAccess,
  type ConsultationAccessUser,
  consultationAccess,
  isConsultationResponsible,
} from '@greensen/shared/domain/consultation-access';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { type ConsultationFacts, loadFacts } from './consultations.repository.js';

/**
 * A refusal by the consultation-access rule. It is audited (outcome `denied`) after the transaction it was
 * raised in has rolled back, so that the refusal row is kept.
 */
export class ConsultationRefusal extends ApiError {
  constructor(
    readonly consultationId: string,
    readonly patientId: string,
    readonly attempted: string,
    readonly access: ConsultationAccess,
  ) {
    super(403, access === 'none' ? 'consultations.forbidden' : 'consultations.read_only');
  }
}

/**
 * The consultation-access rule as the consultation services apply it (the record's and the diagnoses'): the
 * caller's access to a consultation, the lock before a change by someone responsible for it, and the audit of a
 * refusal.
 */
export abstract class ConsultationRules {
  constructor(protected readonly app: FastifyInstance) {}

  protected user(ctx: ServiceContext): ConsultationAccessUser {
    const hospital = scopedHospital(ctx);
    return { id: actingUser(ctx).id, groups: hospital.groups, departmentIds: hospital.departmentIds };
  }

  protected accessOf(ctx: ServiceContext, f: ConsultationFacts) {
    return consultationAccess(this.user(ctx), {
      doctorId: f.doctorId,
      departmentId: f.departmentId,
      status: f.status,
      admissionType: f.admissionType,
    });
  }

  /** Runs `work`, auditing a consultation-access refusal it raised (after its transaction rolled back). */
  protected async audited<T>(ctx: ServiceContext, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ConsultationRefusal) {
        await this.app.audit.record(ctx, {
          action: 'consultation.access_denied',
          outcome: 'denied',
          resourceType: 'consultation',
          resourceId: error.consultationId,
          patientId: error.patientId,
          details: { attempted: error.attempted, access: error.access },
        });
      }
      throw error;
    }
  }

  /**
   * The consultation, locked, for a change by someone responsible for it (the rule's "edit" while in progress):
   * 404 unknown or another hospital's; 403 (audited) when the rule gives no access or read only; 409 once
   * completed or cancelled (`expect` = 'in_progress') — or, for addenda, unless completed.
   */
  protected async lockForChange(
    tx: Tx,
    ctx: ServiceContext,
    id: string,
    attempted: string,
    expect: 'in_progress' | 'completed' = 'in_progress',
  ): Promise<ConsultationFacts> {
    const facts = await loadFacts(tx, scopedHospital(ctx).id, id, true);
    if (!facts) throw notFound();
    const access = this.accessOf(ctx, facts);
    const ruleFacts = {
      doctorId: facts.doctorId,
      departmentId: facts.departmentId,
      status: facts.status,
      admissionType: facts.admissionType,
    };
    if (access === 'none' || !isConsultationResponsible(this.user(ctx), ruleFacts))
      throw new ConsultationRefusal(facts.id, facts.patientId, attempted, access);
    if (facts.status !== expect) {
      if (expect === 'completed') throw conflict('consultations.addendum_not_completed');
      throw conflict(facts.status === 'cancelled' ? 'consultations.cancelled' : 'consultations.locked');
    }
    return facts;
  }
}
