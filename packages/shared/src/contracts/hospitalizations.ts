/**
 * Inpatient stays (issue 17): hospitalizations, the bed board and census, bed assignments, progress notes,
 * transfers and discharge; the nurse's patients (specification §7 `GET /api/nurses/{nurse_id}/patients/`).
 */
import { z } from 'zod';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';
import { ZFrequency } from './pharmacy.js';
import { BED_STATUSES, ZBedCounts } from './structure.js';
import { ZNews2Summary } from './vital-signs.js';

export const HOSPITALIZATION_STATUSES = [
  'pending_bed',
  'admitted',
  'discharged',
  'transferred_out',
  'deceased',
] as const;
export type HospitalizationStatus = (typeof HOSPITALIZATION_STATUSES)[number];
/** A stay still in the hospital (waiting for a bed or in one). */
export const OPEN_HOSPITALIZATION_STATUSES = ['pending_bed', 'admitted'] as const;

export const DISCHARGE_MODES = ['home', 'against_advice', 'transferred', 'deceased'] as const;
export type DischargeMode = (typeof DISCHARGE_MODES)[number];

export const TRANSFER_KINDS = ['internal', 'external'] as const;
export const TRANSFER_STATUSES = ['requested', 'accepted', 'rejected', 'completed', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const OPEN_TRANSFER_STATUSES = ['requested', 'accepted'] as const;

const text = (max: number) => z.string().trim().min(1).max(max);
/** An ICD-10 code as the catalogue writes it (`A01`, `B50.9`); the server checks it exists. */
const icdCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][0-9]{2}(\.[0-9A-Z]{1,4})?$/, 'hospitalizations.icd_invalid');

export const ZIcdRef = z.object({ code: z.string(), label: z.string() });

// Stays ------------------------------------------------------------------------------------------------

export const ZHospitalizationCreate = z.object({
  /** The visit the patient is admitted from (it becomes `hospitalized`). */
  admission: z.uuid(),
  department: z.uuid(),
  /** The doctor in charge (default: the author). */
  doctor: z.uuid().nullish(),
  reason: text(1000),
  provisional_icd_code: icdCode.nullish(),
  expected_days: z.number().int().min(1).max(365).nullish(),
});
export type THospitalizationCreate = z.input<typeof ZHospitalizationCreate>;

export const ZHospitalizationUpdate = z
  .object({
    department: z.uuid().optional(),
    doctor: z.uuid().optional(),
    reason: text(1000).optional(),
    provisional_icd_code: icdCode.nullable().optional(),
    expected_days: z.number().int().min(1).max(365).nullable().optional(),
  })
  .strict();
export type THospitalizationUpdate = z.input<typeof ZHospitalizationUpdate>;

export const ZBedPlace = z.object({
  bed: z.object({ id: z.uuid(), label: z.string() }),
  room: z.object({ id: z.uuid(), name: z.string() }),
  ward: z.object({ id: z.uuid(), code: z.string(), name: z.string() }),
});
export type TBedPlace = z.infer<typeof ZBedPlace>;

export const ZHospitalizationListItem = z.object({
  id: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  doctor: ZPersonRef,
  status: z.enum(HOSPITALIZATION_STATUSES),
  reason: z.string(),
  provisional_diagnosis: ZIcdRef.nullable(),
  expected_days: z.number().int().nullable(),
  /** Where the patient lies now (null while waiting for a bed and once out). */
  place: ZBedPlace.nullable(),
  requested_at: zDateTime,
  admitted_at: zDateTime.nullable(),
  ended_at: zDateTime.nullable(),
  /** Days in hospital, counted from the request (day of arrival = day 1) to today or to the end. */
  days: z.number().int(),
  /** A transfer still requested or accepted. */
  open_transfer: z.uuid().nullable(),
});
export type THospitalizationListItem = z.infer<typeof ZHospitalizationListItem>;
export const ZHospitalizationList = zPage(ZHospitalizationListItem);
export const ZHospitalizationListQuery = ZPageQuery.extend({
  /** `open` (default): pending and admitted; `closed`: discharged, transferred out, deceased; or one status. */
  status: z.enum(['open', 'closed', 'all', ...HOSPITALIZATION_STATUSES]).default('open'),
  ward: z.uuid().optional(),
  department: z.uuid().optional(),
  doctor: z.uuid().optional(),
  patient: z.uuid().optional(),
  /** Name or record number. */
  ...zSearch(),
});

export const ZBedMove = z.object({
  id: z.uuid(),
  place: ZBedPlace,
  started_at: zDateTime,
  ended_at: zDateTime.nullable(),
  assigned_by: ZPersonRef.nullable(),
});

export const ZDischarge = z.object({
  mode: z.enum(DISCHARGE_MODES),
  diagnoses: z.array(ZIcdRef),
  summary: z.string(),
  treatments: z.string().nullable(),
  follow_up_date: z.iso.date().nullable(),
  death_at: zDateTime.nullable(),
  death_cause: ZIcdRef.nullable(),
  discharged_by: ZPersonRef,
});

/**
 * An active order of a stay (issue 37): a medicine line of a signed prescription, a care order or an exam, written
 * in the stay or in the visit it came from, whatever screen created it.
 */
export const ZStayOrder = z.object({
  kind: z.enum(['medication', 'care', 'exam']),
  id: z.uuid(),
  /** The prescription, care plan or exam order the order opens on. */
  ref: z.uuid(),
  label: z.string(),
  /** The prescription's or exam order's number. */
  detail: z.string().nullable(),
  status: z.string(),
  at: z.string(),
  ended_at: z.string().nullable(),
  dose: z.number().nullable(),
  dose_unit: z.string().nullable(),
  frequency: ZFrequency.nullable(),
});
export type TStayOrder = z.infer<typeof ZStayOrder>;

export const ZHospitalizationDetail = ZHospitalizationListItem.extend({
  admission: z.uuid().nullable(),
  consultation: z.uuid().nullable(),
  /** The diagnoses of the consultation that sent the patient in. */
  consultation_diagnoses: z.array(ZIcdRef.extend({ rank: z.string() })),
  bed_moves: z.array(ZBedMove),
  discharge: ZDischarge.nullable(),
  created_by: ZPersonRef.nullable(),
  /** Every active order of the stay (medicines, care, exams), oldest first. */
  orders: z.array(ZStayOrder),
  /** What the caller may do on it now. */
  can: z.object({ edit: z.boolean(), assign_bed: z.boolean(), note: z.boolean(), discharge: z.boolean() }),
});
export type THospitalizationDetail = z.infer<typeof ZHospitalizationDetail>;

/** Assign a bed to a stay waiting for one, or move a patient to another bed. */
/**
 * A placement's guardrails (issue 37, decision 0069): the ward admits one sex or an age band, the bed belongs to
 * the stay's department, the room's other patients are of the same sex. The server decides them; the bed board
 * shows its answer before the placement is confirmed.
 */
export const BED_GUARDRAILS = ['ward_sex', 'ward_age', 'ward_department', 'room_mixed_sex'] as const;
export type BedGuardrail = (typeof BED_GUARDRAILS)[number];

export const ZBedAssign = z
  .object({
    bed: z.uuid(),
    /**
     * A charge nurse places despite the guardrails with a reason (kept with the placement and audited); without
     * it a placement that breaks one is refused (409, the guardrails listed).
     */
    override_reason: z.string().trim().min(5).max(500).nullish(),
  })
  .strict();
export type TBedAssign = z.input<typeof ZBedAssign>;

export const ZBedCheckQuery = z.object({ bed: z.uuid() });
/** What placing the stay's patient in `bed` would break, in the caller's language, and whether they may override. */
export const ZBedCheck = z.object({
  bed: z.uuid(),
  guardrails: z.array(z.object({ code: z.enum(BED_GUARDRAILS), message: z.string() })),
  may_override: z.boolean(),
});
export type TBedCheck = z.infer<typeof ZBedCheck>;

/** Housekeeping: a freed bed is `cleaning` then `free` again. */
export const ZBedHousekeeping = z.object({ status: z.enum(['free', 'cleaning']) }).strict();

export const ZDischargeCreate = z
  .object({
    mode: z.enum(DISCHARGE_MODES),
    diagnoses: z.array(icdCode).max(10).default([]),
    summary: text(10_000),
    treatments: z.string().trim().max(5000).nullish(),
    follow_up_date: z.iso.date().nullish(),
    death_at: zDateTime.nullish(),
    death_cause_icd_code: icdCode.nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    // The discharge summary is a clinical document: it names what the patient leaves with (issue 37).
    if (v.mode !== 'deceased' && v.diagnoses.length === 0)
      ctx.addIssue({ code: 'custom', path: ['diagnoses'], message: 'hospitalizations.diagnoses_required' });
    if (v.mode === 'deceased') {
      if (!v.death_at)
        ctx.addIssue({ code: 'custom', path: ['death_at'], message: 'hospitalizations.death_time_required' });
      if (!v.death_cause_icd_code)
        ctx.addIssue({
          code: 'custom',
          path: ['death_cause_icd_code'],
          message: 'hospitalizations.death_cause_required',
        });
      if (v.follow_up_date)
        ctx.addIssue({ code: 'custom', path: ['follow_up_date'], message: 'hospitalizations.no_follow_up' });
    } else if (v.death_at || v.death_cause_icd_code) {
      ctx.addIssue({ code: 'custom', path: ['mode'], message: 'hospitalizations.death_mode_required' });
    }
  });
export type TDischargeCreate = z.input<typeof ZDischargeCreate>;

// Progress notes ---------------------------------------------------------------------------------------

/** A progress note is signed when written; later corrections are addenda to it. */
export const ZProgressNoteCreate = z
  .object({
    text: text(10_000),
    /** The note this one adds to (an addendum). */
    addendum_of: z.uuid().nullish(),
  })
  .strict();
export const ZProgressNote = z.object({
  id: z.uuid(),
  text: z.string(),
  author: ZPersonRef,
  signed_at: zDateTime,
  addenda: z.array(z.object({ id: z.uuid(), text: z.string(), author: ZPersonRef, signed_at: zDateTime })),
});
export type TProgressNote = z.infer<typeof ZProgressNote>;
export const ZProgressNoteList = zPage(ZProgressNote);

// Bed board and census ----------------------------------------------------------------------------------

export const ZBoardOccupant = z.object({
  hospitalization: z.uuid(),
  patient: ZPatientRef,
  days: z.number().int(),
  main_diagnosis: ZIcdRef.nullable(),
  doctor: ZPersonRef,
  open_transfer: z.uuid().nullable(),
});
export const ZBoardBed = z.object({
  id: z.uuid(),
  label: z.string(),
  status: z.enum(BED_STATUSES),
  status_reason: z.string().nullable(),
  occupant: ZBoardOccupant.nullable(),
});
export type TBoardBed = z.infer<typeof ZBoardBed>;
export const ZBoardWard = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  department: ZDepartmentRef,
  sex_restriction: z.enum(['F', 'M']).nullable(),
  min_age: z.number().int().nullable(),
  max_age: z.number().int().nullable(),
  beds: ZBedCounts,
  rooms: z.array(z.object({ id: z.uuid(), name: z.string(), beds: z.array(ZBoardBed) })),
});
export type TBoardWard = z.infer<typeof ZBoardWard>;
/** The whole board in one answer (a 500-bed hospital is one request): active wards, rooms and beds. */
export const ZBedBoard = z.object({
  wards: z.array(ZBoardWard),
  /** Stays waiting for a bed, oldest first (at most 200; `pending_count` counts them all). */
  pending: z.array(ZHospitalizationListItem),
  pending_count: z.number().int(),
});
export type TBedBoard = z.infer<typeof ZBedBoard>;
export const ZBedBoardQuery = z.object({
  ward: z.uuid().optional(),
  department: z.uuid().optional(),
});

export const ZCensusWard = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  department: ZDepartmentRef,
  beds: ZBedCounts,
  /** Occupied beds over beds in service (total − out of service), 0–1; null when none is in service. */
  occupancy_rate: z.number().nullable(),
});
export const ZCensus = z.object({
  wards: z.array(ZCensusWard),
  totals: ZBedCounts.extend({ occupancy_rate: z.number().nullable(), pending: z.number().int() }),
});
export type TCensus = z.infer<typeof ZCensus>;

// Transfers --------------------------------------------------------------------------------------------

export const ZTransferCreate = z
  .object({
    hospitalization: z.uuid(),
    kind: z.enum(TRANSFER_KINDS),
    /** Internal: the receiving department (and, if known, ward). */
    to_department: z.uuid().nullish(),
    to_ward: z.uuid().nullish(),
    /** External: a hospital of this installation, or a facility named in words. */
    to_hospital: z.uuid().nullish(),
    facility_name: z.string().trim().min(2).max(200).nullish(),
    reason: text(1000),
    /** The referral letter's clinical summary and current treatments. */
    summary: z.string().trim().max(10_000).nullish(),
    treatments: z.string().trim().max(5000).nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'internal' && !v.to_department)
      ctx.addIssue({ code: 'custom', path: ['to_department'], message: 'transfers.department_required' });
    if (v.kind === 'external' && !v.to_hospital && !v.facility_name)
      ctx.addIssue({ code: 'custom', path: ['facility_name'], message: 'transfers.facility_required' });
    if (v.kind === 'external' && !v.summary)
      ctx.addIssue({ code: 'custom', path: ['summary'], message: 'transfers.summary_required' });
  });
export type TTransferCreate = z.input<typeof ZTransferCreate>;

export const ZTransferReject = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
/** Completing an internal transfer puts the patient in a bed of the receiving ward. */
export const ZTransferComplete = z.object({ bed: z.uuid().nullish() }).strict();

export const ZTransfer = z.object({
  id: z.uuid(),
  kind: z.enum(TRANSFER_KINDS),
  status: z.enum(TRANSFER_STATUSES),
  hospitalization: z.uuid(),
  patient: ZPatientRef,
  from_department: ZDepartmentRef,
  to_department: ZDepartmentRef.nullable(),
  to_ward: z.object({ id: z.uuid(), code: z.string(), name: z.string() }).nullable(),
  /** Another hospital of this installation, or the facility named by the requester. */
  to_hospital: z.object({ id: z.uuid(), code: z.string(), name: z.string() }).nullable(),
  facility_name: z.string().nullable(),
  /** Seen from the caller's hospital: received from another hospital of the installation. */
  incoming: z.boolean(),
  reason: z.string(),
  summary: z.string().nullable(),
  treatments: z.string().nullable(),
  requested_by: ZPersonRef,
  requested_at: zDateTime,
  decided_by: ZPersonRef.nullable(),
  decided_at: zDateTime.nullable(),
  reject_reason: z.string().nullable(),
  completed_at: zDateTime.nullable(),
  /** The steps the caller may take now (the receiving side decides, the sending side completes or cancels). */
  can: z.object({ accept: z.boolean(), reject: z.boolean(), complete: z.boolean(), cancel: z.boolean() }),
});
export type TTransfer = z.infer<typeof ZTransfer>;
/** The other active hospitals of this installation: where an external transfer may be sent. */
export const ZFacilityList = z.object({
  results: z.array(z.object({ id: z.uuid(), code: z.string(), name: z.string() })),
});
export type TFacilityList = z.infer<typeof ZFacilityList>;
export const ZTransferList = zPage(ZTransfer);
export const ZTransferListQuery = ZPageQuery.extend({
  status: z.enum(['open', 'all', ...TRANSFER_STATUSES]).default('open'),
  /** `incoming`: to my departments or from another hospital; `outgoing`: asked by my hospital. */
  direction: z.enum(['incoming', 'outgoing', 'all']).default('all'),
  hospitalization: z.uuid().optional(),
});

// Nurses -----------------------------------------------------------------------------------------------

export const ZNursePatient = ZHospitalizationListItem.extend({
  latest_vitals: z
    .object({
      recorded_at: zDateTime,
      temperature: z.number().nullable(),
      heart_rate: z.number().int().nullable(),
      respiratory_rate: z.number().int().nullable(),
      systolic_bp: z.number().int().nullable(),
      diastolic_bp: z.number().int().nullable(),
      spo2: z.number().int().nullable(),
    })
    .nullable(),
  /**
   * The NEWS2 of that latest set, from the patient's one series (triage, consultation or ward; issue 37): the
   * list is sorted by it, highest first. Null: no set, or a child (NEWS2 is from 16 years).
   */
  news2: ZNews2Summary.nullable(),
  /** What needs the nurse's eye: known allergies, a transfer under way, the expected stay exceeded. */
  flags: z.array(z.enum(['allergies', 'transfer', 'overstay'])),
});
export type TNursePatient = z.infer<typeof ZNursePatient>;
export const ZNursePatientList = zPage(ZNursePatient);
export const ZNursePatientQuery = ZPageQuery.extend({ include_pending: zQueryBoolean.optional() });
export const ZNurseParams = z.object({ nurse_id: z.uuid() });
