import type { TDiagnosisUpdate } from '@greensen/shared/contracts/consultations';
import type { DiagnosisCertainty, DiagnosisRank } from '@greensen/shared/domain/consultations';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { patientInHospital } from '../patients/patients.repository.js';
import { ConsultationRefusal, ConsultationRules } from './consultation-rules.js';
import { loadFacts } from './consultations.repository.js';
import {
  codableIcdEntry,
  type DiagnosisChanges,
  demotePrimary,
  findDiagnosis,
  hasActiveDiagnosisCoded,
  insertDiagnosis,
  listDiagnoses,
  listPatientDiagnoses,
  markDiagnosisRemoved,
  updateDiagnosisFields,
} from './diagnoses.repository.js';

/** A consultation's diagnoses (coded in ICD-10 or free text) and the patient's previous ones. */
export class ConsultationDiagnosesService extends ConsultationRules {
  /** The active diagnoses of a consultation the caller may read. */
  async diagnoses(ctx: ServiceContext, id: string, page: number, pageSize: number) {
    const hospitalId = scopedHospital(ctx).id;
    const facts = await loadFacts(this.app.db, hospitalId, id);
    if (!facts) throw notFound();
    const access = this.accessOf(ctx, facts);
    if (access === 'none')
      return this.audited(ctx, async () => {
        throw new ConsultationRefusal(id, facts.patientId, 'read_diagnoses', access);
      });
    const result = await listDiagnoses(this.app.db, hospitalId, id, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'consultation.diagnoses.read',
      resourceType: 'consultation',
      resourceId: id,
      patientId: facts.patientId,
    });
    return result;
  }

  /**
   * Adds a coded (the code must exist in the catalogue; label in the author's language) or free-text
   * diagnosis. A new primary demotes the previous primary to secondary. The same code twice is a 409.
   */
  async addDiagnosis(
    ctx: ServiceContext,
    id: string,
    input: {
      icd_code?: string | null | undefined;
      free_text?: string | null | undefined;
      rank: DiagnosisRank;
      certainty: DiagnosisCertainty;
      notes?: string | null | undefined;
    },
  ) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'add_diagnosis');
        let label = input.free_text ?? '';
        let code: string | null = null;
        if (input.icd_code) {
          const entry = await codableIcdEntry(tx, input.icd_code);
          if (!entry) throw badRequest({ icd_code: ['consultations.diagnosis_code_unknown'] });
          if (await hasActiveDiagnosisCoded(tx, id, entry.code))
            throw conflict('consultations.diagnosis_duplicate', { code: entry.code });
          code = entry.code;
          label = ctx.lang === 'en' ? entry.en : entry.fr;
        }
        const demoted = input.rank === 'primary' ? await demotePrimary(tx, id) : null;
        const diagnosisId = await insertDiagnosis(tx, {
          hospitalId,
          consultationId: id,
          patientId: facts.patientId,
          icdCode: code,
          label,
          coded: code !== null,
          rank: input.rank,
          certainty: input.certainty,
          notes: input.notes ?? null,
          createdBy: actingUser(ctx).id,
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.add',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: diagnosisId, code, rank: input.rank, certainty: input.certainty, demoted },
          },
          tx,
        );
        return (await findDiagnosis(tx, hospitalId, id, diagnosisId))!;
      }),
    );
  }

  async updateDiagnosis(ctx: ServiceContext, id: string, diagnosisId: string, input: TDiagnosisUpdate) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'update_diagnosis');
        const current = await findDiagnosis(tx, hospitalId, id, diagnosisId);
        if (!current) throw notFound();
        const demoted =
          input.rank === 'primary' && current.rank !== 'primary'
            ? await demotePrimary(tx, id, diagnosisId)
            : null;
        const values: DiagnosisChanges = { updatedAt: new Date() };
        if (input.rank) values.rank = input.rank;
        if (input.certainty) values.certainty = input.certainty;
        if (input.notes !== undefined) values.notes = input.notes;
        await updateDiagnosisFields(tx, diagnosisId, values);
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.update',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: diagnosisId, fields: Object.keys(input), demoted },
          },
          tx,
        );
        return (await findDiagnosis(tx, hospitalId, id, diagnosisId))!;
      }),
    );
  }

  /** Removes a diagnosis: kept with `removed_at` (clinical records are never deleted). */
  async removeDiagnosis(ctx: ServiceContext, id: string, diagnosisId: string) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'remove_diagnosis');
        const current = await findDiagnosis(tx, hospitalId, id, diagnosisId);
        if (!current) throw notFound();
        await markDiagnosisRemoved(tx, diagnosisId, actingUser(ctx).id, new Date());
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.remove',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: diagnosisId, code: current.icd_code, rank: current.rank },
          },
          tx,
        );
      }),
    );
  }

  /** The patient's previous diagnoses, from the consultations the caller may read. 404 unknown patient. */
  async patientDiagnoses(
    ctx: ServiceContext,
    patientId: string,
    exclude: string | undefined,
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      if (!(await patientInHospital(tx, hospital.id, patientId))) throw notFound();
      const result = await listPatientDiagnoses(
        tx,
        hospital.id,
        this.user(ctx),
        patientId,
        exclude,
        pageSize,
        (page - 1) * pageSize,
      );
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.diagnoses.read',
          resourceType: 'patient',
          resourceId: patientId,
          patientId,
          details: { page, results: result.rows.length },
        },
        tx,
      );
      return result;
    });
  }
}
