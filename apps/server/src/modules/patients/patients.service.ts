import type { TDuplicateCandidate } from '@greensen/shared/contracts/patients';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { birthDateFromAge } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import {
  countAdmissions,
  type DuplicateRow,
  findDuplicates,
  findPatient,
  insertPatient,
  type PatientInsert,
  RECENT_ADMISSIONS,
  recentAdmissions,
  searchPatients,
  toPatient,
  toSummary,
  updatePatient,
} from './patients.repository.js';

export const RECORD_SEQUENCE = 'patient_record';

export function formatRecordNumber(hospitalCode: string, n: number): string {
  return `${hospitalCode}-${String(n).padStart(6, '0')}`;
}

export interface PatientInput {
  first_name: string;
  last_name: string;
  sex: 'F' | 'M';
  birth_date?: string | null | undefined;
  estimated_age?: number | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  preferred_language?: 'fr' | 'en' | null | undefined;
  address?: string | null | undefined;
  national_id?: string | null | undefined;
  emergency_contact_name?: string | null | undefined;
  emergency_contact_phone?: string | null | undefined;
  blood_group?: string | null | undefined;
  allergies?: string[] | undefined;
  /** Someone asked (true with no allergies: "no known allergy"); a list implies it. */
  allergies_recorded?: boolean | undefined;
  insurance_provider?: string | null | undefined;
  insurance_number?: string | null | undefined;
}

/** Birth date and its estimated flag from a date or an age. */
export function birthOf(input: { birth_date?: string | null; estimated_age?: number | null }): {
  birthDate: string | null;
  estimated: boolean;
} {
  if (input.birth_date) return { birthDate: input.birth_date, estimated: false };
  if (typeof input.estimated_age === 'number')
    return { birthDate: birthDateFromAge(input.estimated_age), estimated: true };
  return { birthDate: null, estimated: false };
}

const dedupeAllergies = (list: string[]) => [
  ...new Map(list.map((a) => [a.toLocaleLowerCase('fr'), a] as const)).values(),
];

export function toCandidate(r: DuplicateRow): TDuplicateCandidate {
  const reasons: TDuplicateCandidate['reasons'] = [];
  if (Number(r.name_score) >= 0.5) reasons.push('name');
  if (r.same_birth) reasons.push('birth_date');
  if (r.same_phone) reasons.push('phone');
  if (r.same_national_id) reasons.push('national_id');
  return { ...toSummary(r), score: Math.round(Number(r.name_score) * 100) / 100, reasons };
}

export class PatientsService {
  constructor(private readonly app: FastifyInstance) {}

  async duplicates(
    q: Queryable,
    hospitalId: string,
    input: Pick<
      PatientInput,
      'first_name' | 'last_name' | 'birth_date' | 'estimated_age' | 'phone' | 'national_id'
    >,
    excludeId?: string,
  ) {
    const { birthDate, estimated } = birthOf(input);
    const rows = await findDuplicates(
      q,
      hospitalId,
      {
        firstName: input.first_name,
        lastName: input.last_name,
        birthDate,
        estimated,
        phone: input.phone ?? null,
        nationalId: input.national_id ? input.national_id.toUpperCase() : null,
      },
      excludeId,
    );
    return rows.map(toCandidate);
  }

  async checkDuplicates(ctx: ServiceContext, input: Parameters<PatientsService['duplicates']>[2]) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const duplicates = await this.duplicates(tx, hospital.id, input);
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.duplicate_check',
          resourceType: 'patient',
          details: { candidates: duplicates.length },
        },
        tx,
      );
      return duplicates;
    });
  }

  /** Registers a patient, or returns the probable duplicates when there are some and they were not confirmed. */
  async create(
    ctx: ServiceContext,
    input: PatientInput & { confirm_duplicate: boolean },
  ): Promise<{ patient: ReturnType<typeof toPatient> } | { duplicates: TDuplicateCandidate[] }> {
    return this.app.db.transaction((tx) => this.createIn(tx, ctx, input));
  }

  /**
   * `create` inside the caller's transaction (the FHIR conditional create holds its lock and its identifier
   * search in the same transaction): the same duplicate rule, record number and audit row.
   */
  async createIn(
    tx: Queryable,
    ctx: ServiceContext,
    input: PatientInput & { confirm_duplicate: boolean },
  ): Promise<{ patient: ReturnType<typeof toPatient> } | { duplicates: TDuplicateCandidate[] }> {
    const hospital = scopedHospital(ctx);
    const duplicates = await this.duplicates(tx, hospital.id, input);
    if (duplicates.length > 0 && !input.confirm_duplicate) return { duplicates };
    const { birthDate, estimated } = birthOf(input);
    const n = await nextSequenceValue(tx, hospital.id, RECORD_SEQUENCE);
    const row = await insertPatient(tx, {
      hospitalId: hospital.id,
      recordNumber: formatRecordNumber(hospital.code, n),
      firstName: input.first_name,
      lastName: input.last_name,
      sex: input.sex,
      birthDate,
      birthDateEstimated: estimated,
      phone: input.phone ?? null,
      email: input.email ?? null,
      preferredLanguage: input.preferred_language ?? null,
      address: input.address ?? null,
      nationalId: input.national_id ? input.national_id.toUpperCase() : null,
      emergencyContactName: input.emergency_contact_name ?? null,
      emergencyContactPhone: input.emergency_contact_phone ?? null,
      bloodGroup: input.blood_group ?? null,
      allergies: dedupeAllergies(input.allergies ?? []),
      allergiesRecorded: input.allergies_recorded === true || (input.allergies?.length ?? 0) > 0,
      insuranceProvider: input.insurance_provider ?? null,
      insuranceNumber: input.insurance_number ?? null,
      createdBy: actingUser(ctx).id,
    });
    await this.app.audit.record(
      ctx,
      {
        action: 'patient.create',
        resourceType: 'patient',
        resourceId: row.id,
        patientId: row.id,
        details: {
          record_number: row.recordNumber,
          ...(duplicates.length ? { confirmed_duplicates: duplicates.map((d) => d.id) } : {}),
        },
      },
      tx,
    );
    return { patient: toPatient(row) };
  }

  async list(
    ctx: ServiceContext,
    query: { search?: string | undefined; archived?: boolean | undefined; page: number; page_size: number },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const result = await searchPatients(tx, hospital.id, {
        search: query.search,
        archived: query.archived ?? false,
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.search',
          resourceType: 'patient',
          details: {
            search: query.search ?? null,
            archived: query.archived ?? false,
            page: query.page,
            results: result.rows.length,
          },
        },
        tx,
      );
      return result;
    });
  }

  async get(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const row = await findPatient(tx, hospital.id, id);
      if (!row) throw notFound();
      const admissions = await recentAdmissions(tx, hospital.id, id);
      // The whole history is counted, never sent: a page of it, and the count for "see all".
      const admissionsCount =
        admissions.length < RECENT_ADMISSIONS ? admissions.length : await countAdmissions(tx, id);
      await this.app.audit.record(
        ctx,
        { action: 'patient.read', resourceType: 'patient', resourceId: id, patientId: id },
        tx,
      );
      return { ...toPatient(row), admissions, admissions_count: admissionsCount };
    });
  }

  /**
   * Edits a record; with `expectedVersion` (FHIR `If-Match`) only when it is still at that version, else a 412
   * `patients.version_mismatch`.
   */
  async update(ctx: ServiceContext, id: string, input: Partial<PatientInput>, expectedVersion?: number) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const current = await findPatient(tx, hospital.id, id);
      if (!current) throw notFound();
      if (current.archivedAt) throw conflict('patients.archived');
      if (expectedVersion !== undefined && current.version !== expectedVersion)
        throw new ApiError(412, 'patients.version_mismatch');
      const values: Partial<PatientInsert> = {};
      if (input.first_name !== undefined) values.firstName = input.first_name;
      if (input.last_name !== undefined) values.lastName = input.last_name;
      if (input.sex !== undefined) values.sex = input.sex;
      if (input.birth_date || typeof input.estimated_age === 'number') {
        const b = birthOf(input);
        values.birthDate = b.birthDate;
        values.birthDateEstimated = b.estimated;
      }
      if (input.phone !== undefined) values.phone = input.phone;
      if (input.email !== undefined) values.email = input.email;
      if (input.preferred_language !== undefined) values.preferredLanguage = input.preferred_language;
      if (input.address !== undefined) values.address = input.address;
      if (input.national_id !== undefined)
        values.nationalId = input.national_id ? input.national_id.toUpperCase() : null;
      if (input.emergency_contact_name !== undefined)
        values.emergencyContactName = input.emergency_contact_name;
      if (input.emergency_contact_phone !== undefined)
        values.emergencyContactPhone = input.emergency_contact_phone;
      if (input.blood_group !== undefined) values.bloodGroup = input.blood_group;
      if (input.allergies !== undefined) values.allergies = dedupeAllergies(input.allergies);
      // Asked or not: as sent, and always asked once there is a list (a list cannot be "not asked").
      if (input.allergies_recorded !== undefined) values.allergiesRecorded = input.allergies_recorded;
      if (input.allergies !== undefined && input.allergies.length > 0) values.allergiesRecorded = true;
      if (input.insurance_provider !== undefined) values.insuranceProvider = input.insurance_provider;
      if (input.insurance_number !== undefined) values.insuranceNumber = input.insurance_number;
      const row = await updatePatient(tx, hospital.id, id, values, expectedVersion);
      // Changed by someone else between the read above and this write.
      if (!row) throw new ApiError(412, 'patients.version_mismatch');
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.update',
          resourceType: 'patient',
          resourceId: id,
          patientId: id,
          details: { fields: Object.keys(input) },
        },
        tx,
      );
      return toPatient(row);
    });
  }

  async archive(ctx: ServiceContext, id: string, reason: string) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const current = await findPatient(tx, hospital.id, id);
      if (!current) throw notFound();
      if (current.archivedAt) throw conflict('patients.archived');
      const row = await updatePatient(tx, hospital.id, id, {
        archivedAt: new Date(),
        archivedReason: reason,
        archivedBy: actingUser(ctx).id,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.archive',
          resourceType: 'patient',
          resourceId: id,
          patientId: id,
          details: { reason },
        },
        tx,
      );
      return toPatient(row!);
    });
  }
}
