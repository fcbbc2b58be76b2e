/**
 * The reviewed access policy of the API (issue 8; DESIGN §4; docs/decisions/0002): for every route, who gets
 * through, what a valid request looks like, what it writes to the audit trail, how it treats another
 * hospital's objects and extra body fields. The security harness (apps/server/test/security/) is generated
 * from the app's own route table and checks every route against this file:
 *
 * - a route without an entry, or an entry without a route, fails the suite;
 * - every route × caller (9 role groups, anonymous, a signed-in user waiting for assignment) × tenancy case
 *   (own hospital; a `Hospital-ID` the caller is not a member of → 403; own hospital with another hospital's
 *   object → 404) must answer as written here;
 * - writes are replayed with random extra fields (mass assignment), every route is fuzzed.
 *
 * The lists below are written out on purpose instead of reusing `ACTION_GROUPS`: widening who may do
 * something must change this file too, and so be reviewed as a security change. This file is data: it is
 * never read by the running server.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DashboardGroup } from '@greensen/shared/domain/roles';

/** The callers of the matrix: one user per role group, nobody, and a signed-in user without any hospital. */
export type MatrixCaller = DashboardGroup | 'anonymous' | 'waiting';

export type DepartmentCode = 'URG' | 'MED' | 'MAT';

/**
 * One hospital of the harness (the caller's own, or the other one) with its staff and fixtures. Each factory
 * makes fresh rows through the API, as the hospital's own staff, so that a request may change them freely.
 */
export interface HospitalKit {
  id: string;
  code: string;
  departments: Record<DepartmentCode, string>;
  /**
   * One member per role group, in the emergency department (the midwife in maternity, the pharmacist in the
   * pharmacy, the cashier at the cash desk: their only membership).
   */
  staff: Record<DashboardGroup, string>;
  /** Rows made once when the harness starts (for read-only requests and generated bodies). */
  standing: {
    patient: string;
    admission: string;
    triage: string;
    consultation: string;
    notification: string;
  };
  /** A new patient (`over`: fields of the registration, such as allergies). */
  patient(over?: Record<string, unknown>): Promise<{ id: string; record_number: string }>;
  admission(opts?: { department?: DepartmentCode; type?: string }): Promise<{ id: string; patient: string }>;
  /** An admission with a triage record. */
  triaged(): Promise<{ id: string; admission: string; patient: string }>;
  /** A triaged admission assigned to `doctor` (default: the hospital's doctor). */
  assigned(doctor?: string): Promise<{ admission: string; patient: string; execution: string }>;
  /**
   * A consultation of an emergency visit, started by the hospital's doctor: `in_progress` (default), `ready` to
   * complete (outcome set, a primary diagnosis), or `completed`.
   */
  consultation(
    stage?: 'in_progress' | 'ready' | 'completed',
  ): Promise<{ id: string; admission: string; patient: string; version: number; diagnosis: string | null }>;
  /** An unread notification of `userId` in this hospital. */
  notification(userId: string): Promise<string>;
  /**
   * A CRP exam order, ordered by the hospital's `requester` (default: its doctor) and brought to `status` by its
   * head doctor. `performedBy` makes that department the performing one (the harness's staff work in URG; in
   * the hospital they would be the laboratory's staff), so that its members pass the department rule.
   */
  exam(
    status?: 'requested' | 'in_progress' | 'completed' | 'validated',
    opts?: { performedBy?: DepartmentCode; requester?: 'doctor' | 'head_doctor' },
  ): Promise<{ id: string; patient: string; version: number }>;
  /** A background job of this hospital in the `failed` state (what an administrator may retry). */
  failedJob(): Promise<string>;
  /** A new department, made by the hospital's administrator. */
  department(): Promise<string>;
  /** A new ward of the emergency department, without rooms. */
  ward(): Promise<string>;
  /** A new ward with one room of two beds. */
  room(): Promise<{ id: string; ward: string; beds: string[] }>;
  /** A free bed of a new room. */
  bed(): Promise<string>;
  /**
   * An inpatient stay of a new emergency visit, admitted by the hospital's doctor in the emergency department:
   * waiting for a bed, or (`bed`) in a bed of a new ward.
   */
  stay(opts?: { bed?: boolean }): Promise<{ id: string; patient: string; bed: string | null }>;
  /** An internal transfer of a stay in a bed to another ward of the emergency department, at `status`. */
  transfer(status?: 'requested' | 'accepted'): Promise<{ id: string; stay: string }>;
  /** A bed being cleaned (freed by a discharge). */
  cleaningBed(): Promise<string>;
  /** A verified account that can sign in, with no hospital. */
  account(): Promise<{ id: string; email: string; password: string }>;
  /** A fresh signed-in session (login) of a new account. */
  session(): Promise<{ access: string; refresh: string }>;
  /** A person invited into this hospital by its administrator (a nurse of URG): their id and membership. */
  staffMember(): Promise<{ id: string; membership: string }>;
  /**
   * The hospital's pharmacy department (PHA). Its members are the harness's nurse and head doctor (a second
   * membership each, same role): the doctor and the queue manager pass the pharmacy routes' roles but are not
   * members, so that the object rule (docs/decisions/0022-pharmacy-roles.md) refuses them.
   */
  pharmacy: string;
  /** A presentation of the shipped reference (paracetamol 500 mg tablet). */
  presentation: string;
  /** The medicine of `presentation` (paracetamol). */
  medication(): Promise<string>;
  /** A lot of `presentation` received into the pharmacy (10 units, expiring in a year). */
  lot(): Promise<string>;
  /**
   * A prescription of a new consultation's patient (one line of `presentation`), written by the hospital's
   * practitioner of `by` (default its doctor): a `draft`, or `signed` with stock in the pharmacy to dispense.
   */
  prescription(
    status?: 'draft' | 'signed',
    by?: DashboardGroup,
  ): Promise<{ id: string; version: number; line: string; patient: string }>;
  /** A medical certificate issued by the hospital's doctor for a new patient, with its verification token. */
  document(): Promise<{ id: string; token: string; patient: string }>;
  /** A hospital model (a French free letter) made by the hospital's administrator. */
  template(): Promise<{ id: string; version: number }>;
  /** A PNG added to a new patient's record by the hospital's secretary. */
  patientDocument(): Promise<{ id: string; patient: string }>;
  /** The care plan (issue 20) of a new stay in a bed of the emergency department, opened by its nurse. */
  carePlan(): Promise<{ id: string; stay: string; patient: string }>;
  /** A care order of a new plan (a custom task once, now) and its scheduled execution. */
  careExecution(): Promise<{ id: string; order: string; plan: string }>;
  /** A handoff of a new plan for the current shift, written by another nurse of the department (not a caller). */
  handoff(): Promise<{ id: string; plan: string }>;
  /** A dose due of a signed prescription of an emergency visit with its care plan (the next scheduled one). */
  dose(): Promise<{ line: string; scheduled_at: string; plan: string }>;
  /** A MAR dose recorded (not given) by a nurse of the visit's department: its id. */
  administration(): Promise<string>;
  /**
   * The hospital's billing department (CAI, the cash desk; decision 0027). Its members are the harness's secretary
   * and head doctor (a second membership each): the queue manager and the nurse pass the billing routes' roles but
   * are not members, so that the object rule refuses them.
   */
  billing: string;
  /** The catalogue's consultation act (derived from completed consultations), with private and insured tariffs. */
  consultationAct: string;
  /** A new act of the catalogue with a private tariff, made by the hospital's administrator. */
  act(): Promise<string>;
  /** A manual act performed for a new visit, recorded by the hospital's doctor. */
  performedAct(): Promise<{ id: string; admission: string; patient: string }>;
  /** A new payer (an insurer covering 80 % of consultations), made by the hospital's administrator. */
  payer(): Promise<string>;
  /** A coverage of a new patient by a new payer, added by the cash desk (the secretary). */
  coverage(): Promise<{ id: string; patient: string }>;
  /** The invoice of a new visit with a completed consultation, assembled by the cash desk: a draft, or issued. */
  invoice(status?: 'draft' | 'issued'): Promise<{ id: string; line: string; patient: string }>;
  /** An open cash session of a billing member of the hospital (the secretary or the head doctor). */
  cashSession(group?: 'secretary' | 'head_doctor' | 'cashier'): Promise<string>;
  /** Closes the member's open cash session, if any. */
  closeCashSession(group: 'secretary' | 'head_doctor' | 'cashier'): Promise<void>;
  /** A cash payment of an issued invoice taken by the secretary, and its receipt. */
  payment(): Promise<{ id: string; receipt: string; invoice: string }>;
  /**
   * A doctor of the medicine department (not a matrix caller) with a standing schedule every day, all day, 20-minute
   * slots of capacity 50, every appointment type (issue 22).
   */
  provider: string;
  /** A new doctor of the medicine department, without a schedule. */
  newProvider(): Promise<string>;
  /** A new schedule of a new provider, made by the administrator. */
  schedule(): Promise<string>;
  /** A future slot of `provider` (tomorrow, hospital time; another one at each call). */
  slot(): string;
  /** An appointment of a new patient with `provider` in the medicine department, starting now, at `status`. */
  appointment(status?: 'booked' | 'checked_in'): Promise<{ id: string; patient: string }>;
  /** A training day of `provider`, far in the future, recorded by the administrator. */
  scheduleException(provider: string): Promise<string>;
  /** A public holiday far in the future, added by the administrator. */
  holiday(): Promise<string>;
  /** The token of a new calendar feed link of the hospital's doctor. */
  icsToken(): Promise<string>;
  /** A new group conversation (issue 23) started by the hospital's doctor with `member` and its nurse. */
  chatConversation(member: string): Promise<string>;
  /** A message written by `author` in a new group conversation of theirs. */
  chatMessage(author: string): Promise<{ id: string; conversation: string }>;
  /** A new group conversation created by `creator`, its only member (decision 0042). */
  chatGroupOf(creator: string): Promise<string>;
  /** A message with a PNG attachment written by `member` in a new group conversation of theirs (decision 0042). */
  chatAttachment(member: string): Promise<string>;
  /** A personal note of `authorId` in this hospital (issue 23). */
  note(authorId: string): Promise<string>;
  /** A note of `authorId` about a new patient of this hospital. */
  patientNote(authorId: string): Promise<{ id: string; patient: string }>;
  /** The hospital's DHIS2 mapping, saved by its administrator (the org unit and two IDSR cells; decision 0039). */
  dhis2Mapping(): Promise<void>;
  /** A dictation recording of `authorId` waiting to be typed (kept as a document of a new patient). */
  recording(authorId: string): Promise<{ id: string; patient: string }>;
}

/** Who sends the request. */
export interface Caller {
  group: MatrixCaller;
  userId: string | null;
  /** The caller's password (fresh callers only; see `freshCaller`). */
  password: string | null;
  /** The hospital the caller is a member of, or null. */
  hospitalId: string | null;
}

export interface RequestParts {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Request headers the route needs (the FHIR endpoint's `If-Match`, `If-None-Exist`). */
  headers?: Record<string, string>;
}

/**
 * The audit trail of a successful request:
 * - read, create, update, cancel: exactly one row about one patient (`patient_id` set);
 * - search: exactly one row (lists and searches of patient data);
 * - event: exactly one row that is not about a patient (sign-in, settings…);
 * - none: no row (no patient data is read or written).
 */
export type AuditClass = 'read' | 'search' | 'create' | 'update' | 'cancel' | 'event' | 'none';

export interface RoutePolicy {
  /** `public`: everybody; `signed-in`: any valid token, no hospital; else the role groups of the hospital. */
  allow: 'public' | 'signed-in' | readonly DashboardGroup[];
  /**
   * Groups the route lets through but an object-level rule refuses for the request's row (403, audited). For
   * another hospital's row they get 404 like everyone: the row is not found before the rule is asked.
   */
  objectRule?: readonly DashboardGroup[];
  audit: AuditClass;
  /**
   * How many audit rows a success writes, 1 by default: a request that does two things to patient data records
   * each (a check-in opens the visit and assigns it to the booked doctor).
   */
  auditRows?: number;
  /**
   * A valid request on `kit`'s rows. The matrix calls it with the caller's hospital, and with the other hospital
   * for the third tenancy case. Missing parts are generated from the route's zod schemas.
   */
  request?: (kit: HospitalKit, caller: Caller) => RequestParts | Promise<RequestParts>;
  /**
   * The third tenancy case (own Hospital-ID, the other hospital's rows in the request), for the callers who are
   * allowed: `not-found` (404, the default for routes with a path id), `rejected` (400 or 404: a body that
   * names them), `empty` (2xx with no results: a list filtered by them), `ignored` (2xx that changes nothing).
   * Routes with no reference to a hospital's rows have no third case.
   */
  otherHospital?: 'not-found' | 'rejected' | 'empty' | 'ignored';
  /**
   * Writes: extra body fields are `ignored` (the stored row, read back from `table` by the id `row` gives, does
   * not take them) or `refused` (400).
   */
  massAssignment?:
    | {
        extras: 'ignored';
        table: string;
        row: (response: unknown, parts: RequestParts, caller: Caller) => string;
      }
    | { extras: 'refused' };
  /**
   * The answer is the installation's directory of hospitals (id, code and name of each, for referrals between
   * them; docs/decisions/0019-inpatient-stays.md): it names the other hospital by design, and nothing else of it.
   */
  directory?: true;
  /** The route changes the caller's own account (password, PIN): every request is made by a new account. */
  freshCaller?: true;
  /**
   * The route changes the hospital the request works in (its record, its settings): a fuzzed body can be a valid
   * change — deactivating the hospital locks its staff out — so every fuzzed request goes to a new hospital its
   * administrator made, not to the one the other routes' requests need.
   */
  scratchHospital?: true;
  /**
   * What allowed callers get for the request above: any 2xx by default, or this status (a documented refusal of
   * the request's content, such as a wrong link), or `not-refused` (anything but 401/403 and 5xx).
   */
  status?: number | 'not-refused';
}

/**
 * The seven groups of the specification's role table (§6): what every route that lets "every member" through
 * opened before decision 0070. The pharmacist and the cashier are added route by route, where their work needs it.
 */
const STAFF: readonly DashboardGroup[] = [
  'head_doctor',
  'doctor',
  'midwife',
  'secretary',
  'queue_manager',
  'nurse',
  'admin',
];
/** Every member of the hospital, the pharmacist and the cashier included (no patient data, or their own rows). */
const EVERYONE: readonly DashboardGroup[] = [...STAFF, 'pharmacist', 'cashier'];
/** Every member but the cashier: the routes of the pharmacy module open to all (stock, lots, alerts). */
const PHARMACY_READERS: readonly DashboardGroup[] = [...STAFF, 'pharmacist'];
const PRACTITIONERS: readonly DashboardGroup[] = ['doctor', 'head_doctor', 'midwife'];
/** Nursing care (issue 20): nurses, the charge nurse (queue-manager group), practitioners. */
const CARE_TEAM: readonly DashboardGroup[] = ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'];
/** Every group with the exams module (specification §6: not secretaries, not midwives). */
const EXAMS: readonly DashboardGroup[] = ['head_doctor', 'doctor', 'queue_manager', 'nurse', 'admin'];
const REGISTRATION: readonly DashboardGroup[] = STAFF;
const CANCELLERS: readonly DashboardGroup[] = [
  'secretary',
  'queue_manager',
  'nurse',
  'doctor',
  'head_doctor',
  'midwife',
];

/** Appointments (issue 22, decision 0028): who books, confirms, moves and cancels. */
const BOOKERS: readonly DashboardGroup[] = [
  'secretary',
  'queue_manager',
  'nurse',
  'doctor',
  'head_doctor',
  'midwife',
];
/** Who sees patients and may have a schedule (and so record their own absences), with the schedule managers. */
const PROVIDERS_AND_MANAGERS: readonly DashboardGroup[] = [
  'head_doctor',
  'admin',
  'doctor',
  'midwife',
  'nurse',
];
/** The caller when they are a provider of `kit`'s hospital, else its standing appointments provider. */
const providerFor = (kit: HospitalKit, caller: Caller) =>
  caller.hospitalId === kit.id &&
  caller.userId &&
  ['doctor', 'head_doctor', 'midwife', 'nurse'].includes(caller.group)
    ? caller.userId
    : kit.provider;

let serial = 0;
/** A string unique in this process (names, emails). */
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}`;
const newPatientBody = () => ({
  first_name: unique('Matrice'),
  last_name: unique('Politique'),
  sex: 'F',
  birth_date: '1984-02-29',
  phone: '+243 81 000 00 00',
  confirm_duplicate: true,
});
/** A word of ten random letters. */
const randomWord = () => {
  const w = [...randomBytes(10)].map((b) => 'abcdefghiklmnoprstuvz'[b % 21]).join('');
  return w.charAt(0).toUpperCase() + w.slice(1);
};
/** A FHIR Patient a registry would send (issue 39). */
const fhirPatientBody = () => ({
  resourceType: 'Patient',
  // No confirmation exists in FHIR: names of random letters, that the app's duplicate detection never matches.
  name: [{ family: randomWord(), given: [randomWord()] }],
  gender: 'female',
  birthDate: `19${10 + (randomBytes(1)[0]! % 89)}-0${1 + (randomBytes(1)[0]! % 9)}-1${randomBytes(1)[0]! % 9}`,
  telecom: [{ system: 'phone', value: '+243 81 000 00 00' }],
});
/** A heart rate a monitor would post for `patient` (issue 39), under a new identifier each time. */
const fhirObservationBody = (patient: string) => ({
  resourceType: 'Observation',
  identifier: [{ system: 'urn:matrix:monitor', value: randomBytes(8).toString('hex') }],
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
  subject: { reference: `Patient/${patient}` },
  effectiveDateTime: new Date().toISOString(),
  valueQuantity: { value: 88, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
});
const idOf = (response: unknown) => (response as { id: string }).id;
const paramId = (_: unknown, parts: RequestParts) => parts.params!.id!;
const callerRow = (_: unknown, _parts: RequestParts, caller: Caller) => caller.userId!;
/** The caller when they belong to `kit`'s hospital and are a practitioner, else the hospital's doctor. */
const practitionerFor = (kit: HospitalKit, caller: Caller) =>
  caller.hospitalId === kit.id && caller.userId && PRACTITIONERS.includes(caller.group as DashboardGroup)
    ? caller.userId
    : kit.staff.doctor;
/** The caller's group when they are a practitioner of `kit`'s hospital, else the doctor's (prescriptions). */
const prescriberFor = (kit: HospitalKit, caller: Caller): DashboardGroup =>
  caller.hospitalId === kit.id && PRACTITIONERS.includes(caller.group as DashboardGroup)
    ? (caller.group as DashboardGroup)
    : 'doctor';
/** A line of a prescription of the kit's presentation. */
const prescriptionLine = (kit: HospitalKit) => ({
  presentation: kit.presentation,
  dose: 1,
  dose_unit: 'comprimé',
  route: 'oral',
  frequency: { kind: 'times_per_day', times: 3 },
  duration_days: 3,
});
/** The groups that pass the pharmacy's stock and dispensing routes (`pharmacy.manage`). */
const PHARMACY_MANAGERS: readonly DashboardGroup[] = [
  'nurse',
  'doctor',
  'head_doctor',
  'queue_manager',
  'pharmacist',
];
/** Those of them that the harness does not make members of the pharmacy: the object rule refuses them. */
const NOT_PHARMACY_MEMBERS: readonly DashboardGroup[] = ['doctor', 'queue_manager'];
/** Prescriptions are read by the care team, the charge nurse and administrators (not secretaries). */
const PRESCRIPTION_READERS: readonly DashboardGroup[] = [
  'nurse',
  'doctor',
  'head_doctor',
  'midwife',
  'queue_manager',
  'admin',
  'pharmacist',
];
// Medical acts and billing (issue 21, docs/decisions/0027-billing-roles.md). The harness's billing department
// (CAI) has the secretary and the head doctor as members; the queue manager and the nurse pass the roles of the
// cash desk's routes but are not members, so that the object rule refuses them. The secretary comes first: the
// fuzzer and the replays act as the first group.
const BILLING_READERS: readonly DashboardGroup[] = [
  'secretary',
  'head_doctor',
  'admin',
  'queue_manager',
  'nurse',
  'cashier',
];
const BILLING_WORKERS: readonly DashboardGroup[] = [
  'secretary',
  'head_doctor',
  'queue_manager',
  'nurse',
  'cashier',
];
const NOT_BILLING_MEMBERS: readonly DashboardGroup[] = ['queue_manager', 'nurse'];
const BILLING_MANAGERS: readonly DashboardGroup[] = ['head_doctor', 'admin'];
/** Clinicians record performed acts; secretaries and queue managers as billing staff only. */
const ACT_RECORDERS: readonly DashboardGroup[] = [
  'doctor',
  'head_doctor',
  'midwife',
  'nurse',
  'secretary',
  'queue_manager',
];
/** The caller's group when they are a billing member of `kit`'s hospital (their own cash session), else null. */
const cashierOf = (kit: HospitalKit, caller: Caller): 'secretary' | 'head_doctor' | 'cashier' | null =>
  caller.hospitalId === kit.id &&
  (caller.group === 'secretary' || caller.group === 'head_doctor' || caller.group === 'cashier')
    ? caller.group
    : null;
/** Opens the caller's own cash session when they are a billing member of `kit`'s hospital (payments need one). */
async function atTheCashDesk(kit: HospitalKit, caller: Caller): Promise<void> {
  const cashier = cashierOf(kit, caller);
  if (cashier) await kit.cashSession(cashier);
}
const today = () => new Date().toISOString().slice(0, 10);

/** Document models are managed by administrators and head doctors (decision 0023). */
const TEMPLATE_MANAGERS: readonly DashboardGroup[] = ['admin', 'head_doctor'];
/** The groups that issue some kind of document (the doctor first: the fuzzer and replays act as it). */
const DOCUMENT_ISSUERS: readonly DashboardGroup[] = [
  'doctor',
  'head_doctor',
  'midwife',
  'secretary',
  'admin',
];
const aMonthAgo = () => new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
/** Reporting (decision 0035): the hospital's management. */
const STATS_READERS: readonly DashboardGroup[] = ['head_doctor', 'admin'];
const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

/** Notes about a patient (issue 23): read as the clinical record is, written by the clinical staff. */
const PATIENT_NOTE_READERS: readonly DashboardGroup[] = [
  'head_doctor',
  'doctor',
  'midwife',
  'queue_manager',
  'nurse',
  'admin',
];
const PATIENT_NOTE_WRITERS: readonly DashboardGroup[] = [
  'doctor',
  'head_doctor',
  'midwife',
  'queue_manager',
  'nurse',
];
/** The caller when they write patient notes in `kit`'s hospital, else its nurse (the author of the note). */
const practitionerOrNurseFor = (kit: HospitalKit, caller: Caller) =>
  caller.hospitalId === kit.id &&
  caller.userId &&
  PATIENT_NOTE_WRITERS.includes(caller.group as DashboardGroup)
    ? caller.userId
    : kit.staff.nurse;

/** The caller when they belong to `kit`'s hospital, else a member of it (for per-user rows). */
const memberFor = (kit: HospitalKit, caller: Caller) =>
  caller.hospitalId === kit.id && caller.userId ? caller.userId : kit.staff.nurse;
/** A new group conversation of which the caller (or, for another hospital's caller, its nurse) is a member. */
const conversationFor = (kit: HospitalKit, caller: Caller) => kit.chatConversation(memberFor(kit, caller));
/** A message of the caller (or of `kit`'s nurse) in a new conversation of theirs. */
const messageFor = (kit: HospitalKit, caller: Caller) => kit.chatMessage(memberFor(kit, caller));
const STRONG_PASSWORD = 'quartz-meadow-lantern-2026';
/** A 1×1 transparent PNG (a logo upload). */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Keys are `METHOD /path/` as registered; a key ending in `*` covers every path under its prefix. */
export const ACCESS_MATRIX: Readonly<Record<string, RoutePolicy>> = {
  // System ------------------------------------------------------------------------------------------------
  'GET /api/health/': { allow: 'public', audit: 'none' },
  'GET /api/config/': { allow: 'public', audit: 'none' },
  'GET /api/docs*': { allow: 'public', audit: 'none', status: 'not-refused' },
  'GET /api/admin/maintenance/': { allow: ['admin'], audit: 'none' },
  'GET /api/admin/audit/': {
    // Reading the audit trail is audited too. The filter keeps the page to rows about this hospital's patients.
    allow: ['admin'],
    audit: 'search',
    request: (kit) => ({ query: { action: 'patient.read', resource: 'patient', user: kit.staff.admin } }),
  },
  // Background jobs (decision 0015): the hospital's and the system-wide ones; no patient data in the list.
  'GET /api/admin/jobs/': { allow: ['admin'], audit: 'none' },
  'POST /api/admin/jobs/:id/retry/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.failedJob() } }),
  },
  'PUT /api/admin/maintenance/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({ body: { enabled: false } }),
    massAssignment: { extras: 'refused' },
  },

  // Hospital-wide settings (decision 0021): every member reads them (the notification sound default), its
  // administrators change them. No module: production installations need them too.
  'GET /api/hospital/settings/': { allow: EVERYONE, audit: 'none' },
  'PATCH /api/hospital/settings/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({ body: { consultation_minutes: 25, notification_sound: true } }),
    massAssignment: { extras: 'refused' },
    scratchHospital: true,
  },

  // Audit viewer: the CSV export of the same filters (issue 15), audited like the list.
  'GET /api/admin/audit/export/': {
    allow: ['admin'],
    audit: 'search',
    request: (kit) => ({ query: { action: 'patient.read', user: kit.staff.admin } }),
  },

  // Staff of the hospital (issue 15, decision 0020): its administrators only. Another hospital's person,
  // membership or department is not found (or refused on the field), exactly like one that does not exist.
  'GET /api/admin/staff/': {
    allow: ['admin'],
    audit: 'none',
    request: (kit) => ({ query: { department: kit.departments.URG, search: 'Test' } }),
    otherHospital: 'empty',
  },
  'POST /api/admin/staff/': {
    allow: ['admin'],
    audit: 'event',
    request: (kit) => ({
      body: {
        email: `${unique('invite-')}@example.test`,
        first_name: 'Aminata',
        last_name: unique('Diallo'),
        role_code: 'NURSE',
        department: kit.departments.URG,
      },
    }),
    // The other hospital's department is refused (400 on the field).
    otherHospital: 'rejected',
    // The answer's id is the invitation's membership (issue 36: nothing of the account is told).
    massAssignment: { extras: 'ignored', table: 'memberships', row: idOf },
  },
  'GET /api/admin/staff/:id/': {
    allow: ['admin'],
    audit: 'none',
    request: (kit) => ({ params: { id: kit.staff.nurse } }),
  },
  'POST /api/admin/staff/:id/memberships/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({
      params: { id: (await kit.staffMember()).id },
      body: { role_code: 'DOCTOR', department: kit.departments.MED },
    }),
    massAssignment: {
      extras: 'ignored',
      table: 'memberships',
      row: (response) =>
        (response as { memberships: { id: string; role_code: string }[] }).memberships.find(
          (m) => m.role_code === 'DOCTOR',
        )!.id,
    },
  },
  'DELETE /api/admin/staff/:id/memberships/:membership_id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => {
      const m = await kit.staffMember();
      return { params: { id: m.id, membership_id: m.membership } };
    },
  },
  'POST /api/admin/staff/:id/deactivate/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.staffMember()).id } }),
  },
  'POST /api/admin/staff/:id/reactivate/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.staffMember()).id } }),
  },
  'POST /api/admin/staff/:id/reset-pin/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.staffMember()).id } }),
  },
  'POST /api/admin/staff/:id/password-reset/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.staffMember()).id } }),
  },

  // Accounts and sessions (public and signed-in routes) ---------------------------------------------------
  'POST /api/login/': {
    allow: 'public',
    audit: 'event',
    request: async (kit) => {
      const a = await kit.account();
      return { body: { email: a.email, password: a.password } };
    },
  },
  'POST /api/token/refresh/': {
    allow: 'public',
    audit: 'none',
    request: async (kit) => ({ body: { refresh: (await kit.session()).refresh } }),
  },
  'POST /api/logout/': {
    allow: 'public',
    audit: 'event',
    request: async (kit) => ({ body: { refresh: (await kit.session()).refresh } }),
  },
  'POST /api/register/': {
    allow: 'public',
    audit: 'event',
    request: () => ({
      body: {
        email: `${unique('matrix-')}@example.test`,
        first_name: 'Nouvelle',
        last_name: 'Personne',
        password: STRONG_PASSWORD,
      },
    }),
    massAssignment: { extras: 'ignored', table: 'users', row: idOf },
  },
  'GET /api/verify-email/:uid/:token/': {
    // Any link is answered `400 {error}` unless valid; the failure is audited.
    allow: 'public',
    audit: 'none',
    request: (kit) => ({ params: { uid: kit.staff.nurse, token: 'not-a-real-token' } }),
    status: 400,
  },
  'POST /api/register/resend-verification/': {
    allow: 'public',
    audit: 'none',
    request: () => ({ body: { email: `${unique('nobody-')}@example.test` } }),
  },
  'POST /api/auth/forgot-password/': {
    // Unknown address: same answer, and one failure row written after the answer.
    allow: 'public',
    audit: 'event',
    request: () => ({ body: { email: `${unique('nobody-')}@example.test` } }),
  },
  // The invitation link of a hospital (issue 36, decision 0060): public, its token is the proof.
  'POST /api/auth/invitations/check/': {
    allow: 'public',
    audit: 'none',
    request: () => ({ body: { token: 'not-a-real-token' } }),
    status: 400,
  },
  'POST /api/auth/invitations/accept/': {
    allow: 'public',
    audit: 'none',
    request: () => ({ body: { token: 'not-a-real-token', new_password: STRONG_PASSWORD } }),
    status: 400,
  },
  'POST /api/auth/reset-password/': {
    allow: 'public',
    audit: 'none',
    request: (kit) => ({
      body: { token: 'not-a-real-token', uid: kit.staff.nurse, new_password: STRONG_PASSWORD },
    }),
    status: 400,
  },
  // The first start of a real installation (decision 0021): the harness's installation has hospitals and
  // accounts, so any link — even a well-formed body — is a 404, for everybody.
  'GET /api/setup/:token/': {
    allow: 'public',
    audit: 'none',
    request: () => ({ params: { token: 'not-a-real-token' } }),
    status: 404,
  },
  'POST /api/setup/': {
    allow: 'public',
    audit: 'none',
    request: () => ({
      body: {
        token: 'not-a-real-token',
        name: 'Hôpital de la Matrice',
        code: unique('SET').slice(0, 20),
        time_zone: 'Africa/Dakar',
        currency: 'XOF',
        triage_scale: 'SATS',
        first_name: 'Première',
        last_name: 'Administratrice',
        email: `${unique('setup-')}@example.test`,
        password: STRONG_PASSWORD,
      },
    }),
    status: 404,
    massAssignment: { extras: 'refused' },
  },
  'GET /api/profile/': { allow: 'signed-in', audit: 'none' },
  'GET /api/profile/waiting/': { allow: 'signed-in', audit: 'none' },
  'PUT /api/profile/': {
    allow: 'signed-in',
    audit: 'none',
    request: () => ({ body: { profile: { language_preference: 'fr' } } }),
    massAssignment: { extras: 'ignored', table: 'users', row: callerRow },
    freshCaller: true,
  },
  'POST /api/auth/change-password/': {
    allow: 'signed-in',
    audit: 'event',
    request: (_kit, caller) => ({
      body: { current_password: caller.password ?? 'unknown', new_password: STRONG_PASSWORD },
    }),
    massAssignment: { extras: 'ignored', table: 'users', row: callerRow },
    freshCaller: true,
  },
  'POST /api/pin/setup/': {
    allow: 'signed-in',
    audit: 'event',
    request: (_kit, caller) => ({ body: { pin: '4826', password: caller.password ?? 'unknown' } }),
    massAssignment: { extras: 'ignored', table: 'users', row: callerRow },
    freshCaller: true,
  },
  'DELETE /api/pin/': { allow: 'signed-in', audit: 'event', freshCaller: true },
  'POST /api/pin/verify/': {
    // No PIN set: 409; the fifth wrong PIN would end the session, hence a new caller each time.
    allow: 'signed-in',
    audit: 'none',
    request: () => ({ body: { pin: '0000' } }),
    freshCaller: true,
    status: 409,
  },
  'POST /api/unlock/': {
    allow: 'signed-in',
    audit: 'none',
    request: (_kit, caller) => ({ body: { password: caller.password ?? 'unknown' } }),
    freshCaller: true,
  },
  'POST /api/notifications/ws-ticket/': { allow: 'signed-in', audit: 'none' },

  // FHIR R4 (issue 39, docs/fhir.md): the same sign-in, hospital scope and roles as the REST routes of the same
  // data; every error an OperationOutcome. Searches that name another hospital's patient find nothing.
  'GET /fhir/R4/metadata': { allow: 'public', audit: 'none' },
  'GET /fhir/R4/Patient': {
    allow: EVERYONE,
    audit: 'search',
    request: () => ({ query: { name: 'Mbuyi', _count: '5' } }),
  },
  'GET /fhir/R4/Patient/:id': {
    allow: EVERYONE,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'POST /fhir/R4/Patient': {
    allow: REGISTRATION,
    audit: 'create',
    request: () => ({ body: fhirPatientBody() }),
    // Elements the endpoint does not map are refused, never dropped (the resource is strict).
    massAssignment: { extras: 'refused' },
  },
  'PUT /fhir/R4/Patient/:id': {
    allow: REGISTRATION,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.patient()).id },
      body: fhirPatientBody(),
      headers: { 'if-match': 'W/"1"' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /fhir/R4/Patient/:id/$everything': {
    allow: EVERYONE,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'GET /fhir/R4/Encounter': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: `Patient/${kit.standing.patient}` } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/Encounter/:id': {
    allow: STAFF,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.admission } }),
  },
  'GET /fhir/R4/Observation': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient, category: 'vital-signs' } }),
    otherHospital: 'empty',
  },
  'POST /fhir/R4/Observation': {
    // The ward's writers record an instrument's vital sign (a set of the care plan, like the ward's own sets).
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      body: fhirObservationBody((await kit.carePlan()).patient),
      headers: { 'if-none-exist': 'identifier=urn:matrix:monitor|ignored' },
    }),
    // Another hospital's patient is not found (404).
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /fhir/R4/Observation/:id': {
    allow: STAFF,
    audit: 'read',
    request: (kit) => ({ params: { id: `${kit.standing.triage}-hr` } }),
  },
  'GET /fhir/R4/Condition': {
    // Diagnoses: the head doctor, who reads every consultation of the hospital (decision 0062).
    allow: ['head_doctor'],
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/Condition/:id': {
    allow: ['head_doctor'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.consultation('ready')).diagnosis! } }),
  },
  'GET /fhir/R4/AllergyIntolerance': {
    allow: EVERYONE,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/AllergyIntolerance/:id': {
    allow: EVERYONE,
    audit: 'read',
    request: async (kit) => ({ params: { id: `${(await kit.patient({ allergies: ['Arachide'] })).id}-a0` } }),
  },
  'GET /fhir/R4/Organization/:id': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ params: { id: kit.id } }),
  },
  'GET /fhir/R4/MedicationRequest': {
    allow: PRESCRIPTION_READERS,
    audit: 'search',
    request: (kit) => ({ query: { patient: `Patient/${kit.standing.patient}`, status: 'active' } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/MedicationRequest/:id': {
    allow: PRESCRIPTION_READERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: `${(await kit.prescription()).id}-1` } }),
  },
  // The MAR: the care team, each the doses of her departments (the midwife's department is not the visit's).
  'GET /fhir/R4/MedicationAdministration': {
    allow: CARE_TEAM,
    audit: 'search',
    request: (kit) => ({ query: { patient: `Patient/${kit.standing.patient}`, status: 'not-done' } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/MedicationAdministration/:id': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: await kit.administration() } }),
  },
  // Validated exams: the exams module's groups, as the REST exam reads.
  'GET /fhir/R4/DiagnosticReport': {
    allow: EXAMS,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient, category: 'LAB' } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/DiagnosticReport/:id': {
    allow: EXAMS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.exam('validated')).id } }),
  },
  // The hospital's staff and structure: no patient data, read by every member (the encounters refer to them).
  'GET /fhir/R4/Practitioner': {
    allow: EVERYONE,
    audit: 'none',
    request: () => ({ query: { name: 'a' } }),
  },
  'GET /fhir/R4/Practitioner/:id': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ params: { id: kit.staff.doctor } }),
  },
  'GET /fhir/R4/Location': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit) => ({ query: { partof: `Location/${(await kit.room()).id}` } }),
    otherHospital: 'empty',
  },
  'GET /fhir/R4/Location/:id': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.bed() } }),
  },

  // Patients ----------------------------------------------------------------------------------------------
  'GET /api/patients/': { allow: EVERYONE, audit: 'search' },
  'POST /api/patients/check-duplicates/': {
    allow: REGISTRATION,
    audit: 'search',
    request: () => {
      const { confirm_duplicate: _, sex: __, ...body } = newPatientBody();
      return { body };
    },
  },
  'POST /api/patients/': {
    allow: REGISTRATION,
    audit: 'create',
    request: () => ({ body: newPatientBody() }),
    massAssignment: { extras: 'ignored', table: 'patients', row: idOf },
  },
  'GET /api/patients/:id/': {
    allow: EVERYONE,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'PATCH /api/patients/:id/': {
    allow: REGISTRATION,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.patient()).id },
      body: { address: 'Avenue du Commerce 12, Gombe', allergies: ['Pénicilline'] },
    }),
    massAssignment: { extras: 'ignored', table: 'patients', row: paramId },
  },
  'GET /api/patients/:id/access-log/': {
    // Who opened the record (decision 0020): administrators and head doctors.
    allow: ['head_doctor', 'admin'],
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'POST /api/patients/:id/archive/': {
    allow: ['secretary', 'queue_manager', 'head_doctor', 'admin'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.patient()).id },
      body: { reason: 'Doublon fusionné' },
    }),
    massAssignment: { extras: 'ignored', table: 'patients', row: paramId },
  },

  // Admissions --------------------------------------------------------------------------------------------
  'GET /api/admissions/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'POST /api/admissions/': {
    allow: REGISTRATION,
    audit: 'create',
    request: async (kit) => ({
      body: {
        patient: (await kit.patient()).id,
        department: kit.departments.URG,
        admission_type: 'emergency',
        reason: 'Fièvre depuis trois jours',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'ignored', table: 'admissions', row: idOf },
  },
  'GET /api/admissions/:id/': {
    allow: STAFF,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.admission } }),
  },
  'PATCH /api/admissions/:id/': {
    allow: REGISTRATION,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.admission()).id },
      body: { reason: 'Fièvre et toux', department: kit.departments.MED },
    }),
    massAssignment: { extras: 'ignored', table: 'admissions', row: paramId },
  },
  'POST /api/admissions/:id/status/': {
    allow: ['doctor', 'head_doctor', 'midwife', 'queue_manager'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.admission()).id },
      body: { status: 'cancelled', reason: 'Parti sans attendre' },
    }),
    massAssignment: { extras: 'ignored', table: 'admissions', row: paramId },
  },
  'POST /api/admissions/:id/cancel/': {
    allow: CANCELLERS,
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.admission()).id },
      body: { reason: 'Erreur de saisie' },
    }),
    massAssignment: { extras: 'ignored', table: 'admissions', row: paramId },
  },
  'POST /api/assign-patient/': {
    allow: ['secretary', 'queue_manager', 'head_doctor'],
    audit: 'update',
    request: async (kit) => ({
      body: { admission: (await kit.triaged()).admission, doctor: kit.staff.doctor },
    }),
    otherHospital: 'rejected',
    massAssignment: {
      extras: 'ignored',
      table: 'executions',
      row: (response) => (response as { execution: { id: string } }).execution.id,
    },
  },
  'POST /api/admissions/:id/start-consultation/': {
    // Secretaries never reach consultations (module rule); each practitioner starts a visit assigned to them.
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit, caller) => ({
      params: { id: (await kit.assigned(practitionerFor(kit, caller))).admission },
    }),
  },

  // Triage ------------------------------------------------------------------------------------------------
  'GET /api/triage/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { department: kit.departments.URG } }),
    otherHospital: 'empty',
  },
  'POST /api/triage/': {
    allow: ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
    audit: 'create',
    request: async (kit) => ({
      body: {
        admission: (await kit.admission()).id,
        vitals: { temperature: 38.4, heart_rate: 96, systolic_bp: 128, diastolic_bp: 82, spo2: 97 },
        chief_complaint: 'Fièvre et céphalées',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'ignored', table: 'triage_records', row: idOf },
  },
  'POST /api/triage/suggest/': {
    allow: STAFF,
    audit: 'none',
    request: () => ({ body: { vitals: { heart_rate: 130, spo2: 91 } } }),
  },
  'GET /api/triage/records/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'GET /api/triage/:id/': {
    allow: STAFF,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.triage } }),
  },

  // Consultations (the consultation-access rule, docs/consultation-access.md; the module rule: no secretary) ---
  // The harness's consultations are emergency visits of the emergency department, started by the hospital's
  // doctor (the matrix's doctor): that doctor and any head doctor may edit; nobody else reads them (the midwife
  // works in maternity, nurses, queue managers and administrators never read consultations): 403, audited.
  'GET /api/consultations/': {
    allow: ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'POST /api/consultations/': {
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit) => ({ body: { patient: (await kit.patient()).id, reason: 'Consultation directe' } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'ignored', table: 'consultations', row: idOf },
  },
  'GET /api/consultations/:id/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.consultation } }),
  },
  'PATCH /api/consultations/:id/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => {
      const c = await kit.consultation();
      return { params: { id: c.id }, body: { version: c.version, history: 'Fièvre depuis deux jours' } };
    },
    massAssignment: { extras: 'ignored', table: 'consultations', row: paramId },
  },
  'POST /api/consultations/:id/complete/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.consultation('ready')).id }, body: {} }),
    massAssignment: { extras: 'ignored', table: 'consultations', row: paramId },
  },
  'POST /api/consultations/:id/cancel/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.consultation()).id },
      body: { reason: 'Ouverte par erreur' },
    }),
    massAssignment: { extras: 'ignored', table: 'consultations', row: paramId },
  },
  'POST /api/consultations/:id/addenda/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.consultation('completed')).id },
      body: { text: 'Résultat du TDR reçu : positif.' },
    }),
    massAssignment: { extras: 'ignored', table: 'consultation_addenda', row: idOf },
  },
  'GET /api/consultations/:id/diagnoses/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.consultation } }),
  },
  'POST /api/consultations/:id/diagnoses/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.consultation()).id },
      body: { free_text: 'Anémie modérée', rank: 'secondary' },
    }),
    massAssignment: { extras: 'ignored', table: 'consultation_diagnoses', row: idOf },
  },
  'PATCH /api/consultations/:id/diagnoses/:diagnosis_id/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => {
      const c = await kit.consultation('ready');
      return { params: { id: c.id, diagnosis_id: c.diagnosis! }, body: { certainty: 'suspected' } };
    },
    massAssignment: {
      extras: 'ignored',
      table: 'consultation_diagnoses',
      row: (_, parts) => parts.params!.diagnosis_id!,
    },
  },
  'DELETE /api/consultations/:id/diagnoses/:diagnosis_id/': {
    allow: ['doctor', 'head_doctor'],
    objectRule: ['midwife'],
    audit: 'cancel',
    request: async (kit) => {
      const c = await kit.consultation('ready');
      return { params: { id: c.id, diagnosis_id: c.diagnosis! } };
    },
  },
  'GET /api/patients/:id/diagnoses/': {
    // The patient's diagnoses from the consultations the caller may read (none for most): never a refusal.
    allow: ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },

  // ICD-10 catalogue (global, not patient data: no audit; the consultations module's rule: no secretary) --
  'GET /api/icd10/': {
    allow: ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'none',
    request: () => ({ query: { search: 'paludisme' } }),
  },
  'GET /api/icd10/:code/': {
    allow: ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse', 'admin'],
    audit: 'none',
    // The catalogue is the installation's, not a hospital's: the "other hospital" case reads the same code. The
    // harness's database holds the test codes (the discharge needs a diagnosis, decision 0066).
    request: () => ({ params: { code: 'B50.9' } }),
    status: 'not-refused',
    otherHospital: 'ignored',
  },

  // Exams (docs/decisions/0007-exam-roles.md; the module rule: no secretary, no midwife) -----------------------
  // The route roles are checked here; the department and requester rules per order are in the exams tests. The
  // fixtures make the callers' department (URG) the performing one and the caller the requester where it matters.
  'GET /api/exams/catalogue/': {
    allow: EXAMS,
    audit: 'none',
    request: () => ({ query: { search: 'palu' } }),
  },
  'GET /api/exams/alerts/': { allow: EXAMS, audit: 'search' },
  'GET /api/exams/': {
    allow: EXAMS,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'POST /api/exams/': {
    allow: ['doctor', 'head_doctor'],
    audit: 'create',
    request: (kit) => ({ body: { patient: kit.standing.patient, exam: 'CRP', urgency: 'routine' } }),
    otherHospital: 'rejected',
    massAssignment: {
      extras: 'ignored',
      table: 'exam_orders',
      row: (response) => (response as { orders: { id: string }[] }).orders[0]!.id,
    },
  },
  'GET /api/exams/:id/': {
    allow: EXAMS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.exam()).id } }),
  },
  'POST /api/exams/:id/start/': {
    allow: ['nurse', 'doctor', 'head_doctor'],
    audit: 'update',
    request: async (kit) => {
      const e = await kit.exam('requested', { performedBy: 'URG' });
      return { params: { id: e.id }, body: { version: e.version } };
    },
    massAssignment: { extras: 'ignored', table: 'exam_orders', row: paramId },
  },
  'PUT /api/exams/:id/results/': {
    allow: ['nurse', 'doctor', 'head_doctor'],
    audit: 'update',
    request: async (kit) => {
      const e = await kit.exam('in_progress', { performedBy: 'URG' });
      return { params: { id: e.id }, body: { results: { crp: 12.5 }, version: e.version } };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/exams/:id/validate/': {
    allow: ['doctor', 'head_doctor'],
    audit: 'update',
    request: async (kit) => {
      const e = await kit.exam('completed', { performedBy: 'URG' });
      return { params: { id: e.id }, body: { version: e.version } };
    },
    massAssignment: { extras: 'ignored', table: 'exam_orders', row: paramId },
  },
  'POST /api/exams/:id/cancel/': {
    // The requester (the hospital's doctor), a head doctor, or the performing department while requested.
    allow: ['nurse', 'doctor', 'head_doctor'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.exam('requested', { performedBy: 'URG' })).id },
      body: { reason: 'Prescrit en double' },
    }),
    massAssignment: { extras: 'ignored', table: 'exam_orders', row: paramId },
  },
  'POST /api/exams/:id/acknowledge/': {
    // The requester acknowledges a validated result: each allowed caller's own order.
    allow: ['doctor', 'head_doctor'],
    audit: 'update',
    request: async (kit, caller) => {
      const requester = caller.group === 'head_doctor' ? 'head_doctor' : 'doctor';
      return { params: { id: (await kit.exam('validated', { requester })).id } };
    },
  },

  // Departments, practitioners and their queues -----------------------------------------------------------
  'GET /api/departments/': { allow: EVERYONE, audit: 'none' },
  // The hospital's structure (issue 15): every member reads the wards, administrators change the structure.
  'GET /api/hospitals/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ params: { id: kit.id } }),
  },
  'POST /api/hospitals/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({
      body: {
        name: unique('Hôpital'),
        code: unique('H').toUpperCase(),
        time_zone: 'Africa/Abidjan',
        currency: 'XOF',
        triage_scale: 'FRENCH',
      },
    }),
    massAssignment: { extras: 'ignored', table: 'hospitals', row: (response) => idOf(response) },
  },
  'PATCH /api/hospitals/:id/': {
    // Only the hospital the request works in: another hospital's id is not found.
    allow: ['admin'],
    audit: 'event',
    request: (kit) => ({ params: { id: kit.id }, body: { print_footer: unique('Pied de page') } }),
    // One row per hospital (no fresh row per request to compare): a field it does not know is a 400.
    massAssignment: { extras: 'refused' },
    scratchHospital: true,
  },
  'GET /api/hospitals/:id/logo/': {
    allow: EVERYONE,
    audit: 'none',
    // A 404 until an administrator uploads one (the PUT below may have run first): either way, not refused.
    request: (kit) => ({ params: { id: kit.id } }),
    status: 'not-refused',
  },
  'PUT /api/hospitals/:id/logo/': {
    allow: ['admin'],
    audit: 'event',
    request: (kit) => ({ params: { id: kit.id }, body: { data: TINY_PNG } }),
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/hospitals/:id/logo/': {
    allow: ['admin'],
    audit: 'event',
    request: (kit) => ({ params: { id: kit.id } }),
  },
  'POST /api/departments/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({ body: { name: unique('Service'), code: unique('S').toUpperCase(), kind: 'clinical' } }),
    massAssignment: { extras: 'ignored', table: 'departments', row: (response) => idOf(response) },
  },
  'PATCH /api/departments/:id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.department() }, body: { name: unique('Service') } }),
    massAssignment: { extras: 'ignored', table: 'departments', row: paramId },
  },
  'GET /api/wards/': { allow: EVERYONE, audit: 'none' },
  'GET /api/wards/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.ward() } }),
  },
  'POST /api/wards/': {
    allow: ['admin'],
    audit: 'event',
    request: (kit) => ({
      body: { department: kit.departments.MED, name: unique('Unité'), code: unique('W').toUpperCase() },
    }),
    // The other hospital's department is refused (400 on the field).
    otherHospital: 'rejected',
    massAssignment: { extras: 'ignored', table: 'wards', row: (response) => idOf(response) },
  },
  'PATCH /api/wards/:id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.ward() }, body: { name: unique('Unité') } }),
    massAssignment: { extras: 'ignored', table: 'wards', row: paramId },
  },
  'POST /api/wards/:id/rooms/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({
      params: { id: await kit.ward() },
      body: { name: unique('R'), beds: ['A', 'B'] },
    }),
    massAssignment: { extras: 'ignored', table: 'wards', row: paramId },
  },
  'PATCH /api/rooms/:id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.room()).id }, body: { name: unique('R') } }),
    massAssignment: { extras: 'ignored', table: 'rooms', row: paramId },
  },
  'POST /api/rooms/:id/beds/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({
      params: { id: (await kit.room()).id },
      body: { labels: [unique('L').slice(0, 20)] },
    }),
    massAssignment: { extras: 'ignored', table: 'rooms', row: paramId },
  },
  'PATCH /api/beds/:id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.bed() }, body: { status: 'cleaning' } }),
    massAssignment: { extras: 'ignored', table: 'beds', row: paramId },
  },
  // Inpatient stays (issue 17) ---------------------------------------------------------------------------
  'GET /api/hospitalizations/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient, status: 'all' } }),
    otherHospital: 'empty',
  },
  'POST /api/hospitalizations/': {
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit) => ({
      body: {
        admission: (await kit.admission()).id,
        department: kit.departments.URG,
        reason: 'Paludisme grave',
      },
    }),
    // The other hospital's visit is refused (400 on the field).
    otherHospital: 'rejected',
    massAssignment: { extras: 'ignored', table: 'hospitalizations', row: idOf },
  },
  'GET /api/hospitalizations/board/': { allow: STAFF, audit: 'search' },
  'GET /api/hospitalizations/census/': { allow: STAFF, audit: 'none' },
  'POST /api/hospitalizations/beds/:id/status/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.cleaningBed() }, body: { status: 'free' } }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/hospitalizations/:id/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager', 'admin'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.stay()).id } }),
  },
  'PATCH /api/hospitalizations/:id/': {
    allow: PRACTITIONERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.stay()).id }, body: { expected_days: 5 } }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/hospitalizations/:id/bed/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.stay()).id }, body: { bed: await kit.bed() } }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/hospitalizations/:id/bed-check/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.stay()).id }, query: { bed: await kit.bed() } }),
  },
  'POST /api/hospitalizations/:id/discharge/': {
    allow: PRACTITIONERS,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.stay({ bed: true })).id },
      body: { mode: 'home', diagnoses: ['B50.9'], summary: 'Évolution favorable sous traitement.' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/hospitalizations/:id/notes/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager', 'admin'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.stay()).id } }),
  },
  'POST /api/hospitalizations/:id/notes/': {
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.stay()).id },
      body: { text: 'Apyrétique, bonne tolérance du traitement.' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/nurses/:nurse_id/patients/': {
    allow: ['nurse', 'queue_manager', 'head_doctor', 'admin'],
    audit: 'search',
    // A nurse reads her own patients (another nurse's are a 403); the others read the hospital's nurse's.
    request: (kit, caller) => ({
      params: {
        nurse_id: caller.hospitalId === kit.id && caller.group === 'nurse' ? caller.userId! : kit.staff.nurse,
      },
    }),
  },
  // Nursing care (issue 20, docs/decisions/0025-nursing-care.md): the care team; the plans are those of the
  // caller's departments (the harness's midwife works in maternity: the object rule refuses her the emergency
  // department's plans, and her lists are empty).
  'GET /api/care/shift/': { allow: STAFF, audit: 'none' },
  'GET /api/care/patients/': { allow: CARE_TEAM, audit: 'search' },
  'POST /api/care/plans/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({ body: { hospitalization: (await kit.stay({ bed: true })).id } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/plans/:id/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.carePlan()).id } }),
  },
  'PATCH /api/care/plans/:id/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.carePlan()).id }, body: { hypercapnic: true } }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/plans/:id/orders/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.careExecution()).plan }, query: { status: 'all' } }),
  },
  'POST /api/care/plans/:id/orders/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.carePlan()).id },
      body: {
        kind: 'vitals',
        title: 'Surveillance des constantes',
        signs: ['temperature', 'heart_rate', 'blood_pressure'],
        schedule: { kind: 'every_hours', hours: 4 },
        days: 2,
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/orders/:id/stop/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.careExecution()).order },
      body: { reason: 'Fin de la surveillance' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/plans/:id/executions/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.careExecution()).plan } }),
  },
  'GET /api/care/executions/': { allow: CARE_TEAM, audit: 'search' },
  'GET /api/care/nurses/': {
    allow: CARE_TEAM,
    audit: 'none',
    request: (kit) => ({ query: { department: kit.departments.URG } }),
    otherHospital: 'empty',
  },
  'POST /api/care/executions/:id/assign/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.careExecution()).id },
      body: { nurse: kit.staff.nurse },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/executions/:id/schedule/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.careExecution()).id },
      body: { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/executions/:id/record/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.careExecution()).id }, body: { outcome: 'done' } }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/executions/:id/undo/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    // A task nobody recorded: nothing to take back (409) for every caller allowed; the undo itself, by whoever
    // recorded it within the minute, is in care/task-undo.test.ts.
    request: async (kit) => ({ params: { id: (await kit.careExecution()).id } }),
    status: 409,
  },
  'POST /api/care/executions/:id/cancel/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.careExecution()).id },
      body: { reason: 'Sortie du patient' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/nurses/:nurse_id/tasks/': {
    allow: ['nurse', 'queue_manager', 'doctor', 'head_doctor'],
    audit: 'search',
    // The nurse reads her own tasks; the charge nurse and the doctors of her department read the hospital's nurse's.
    request: (kit, caller) => ({
      params: {
        nurse_id: caller.hospitalId === kit.id && caller.group === 'nurse' ? caller.userId! : kit.staff.nurse,
      },
    }),
  },
  'GET /api/care/rounds/': { allow: CARE_TEAM, audit: 'search' },
  'POST /api/care/rounds/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      body: {
        entries: [
          {
            hospitalization: (await kit.carePlan()).stay,
            vitals: {
              temperature: 37.2,
              heart_rate: 80,
              respiratory_rate: 16,
              systolic_bp: 125,
              spo2: 97,
              avpu: 'A',
            },
          },
        ],
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/plans/:id/vitals/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.carePlan()).id } }),
  },
  'POST /api/care/plans/:id/vitals/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.carePlan()).id },
      body: { vitals: { temperature: 37.8, heart_rate: 92, spo2: 96 } },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/plans/:id/fluids/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.carePlan()).id },
      body: { direction: 'intake', kind: 'oral', volume_ml: 250 },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/plans/:id/chart/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.carePlan()).id } }),
  },
  'GET /api/care/plans/:id/mar/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.dose()).plan } }),
  },
  'POST /api/care/mar/administrations/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => {
      const dose = await kit.dose();
      return {
        body: {
          outcome: 'not_given',
          prescription_line: dose.line,
          scheduled_at: dose.scheduled_at,
          idempotency_key: randomUUID(),
          reason: 'refused',
        },
      };
    },
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'POST /api/care/mar/stat/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      body: {
        prescription_line: (await kit.dose()).line,
        idempotency_key: randomUUID(),
        dose: 1,
        dose_unit: 'comprimé',
        route: 'oral',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/handoffs/': { allow: CARE_TEAM, audit: 'search' },
  'GET /api/care/plans/:id/handoff-draft/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.carePlan()).id } }),
  },
  'POST /api/care/handoffs/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'create',
    request: async (kit) => ({
      body: {
        plan: (await kit.carePlan()).id,
        situation: 'Patient stable, apyrétique.',
        background: 'Paludisme grave, J2 artésunate.',
        assessment: 'NEWS2 1.',
        recommendation: 'Surveillance des constantes toutes les 4 h.',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/care/handoffs/:id/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.handoff()).id } }),
  },
  'POST /api/care/handoffs/:id/acknowledge/': {
    allow: CARE_TEAM,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.handoff()).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  // Appointments (issue 22, docs/decisions/0028-appointments.md). Schedules, absences, holidays and providers are
  // read by every member (no patient data); appointments by the bookers; the desk checks in.
  'GET /api/appointments/schedules/': { allow: STAFF, audit: 'none' },
  'POST /api/appointments/schedules/': {
    allow: ['head_doctor', 'admin'],
    audit: 'event',
    request: async (kit) => ({
      body: {
        provider: await kit.newProvider(),
        department: kit.departments.MED,
        sessions: [{ weekday: 'tue', start: '08:00', end: '12:00' }],
        slot_minutes: 20,
        capacity: 2,
        types: ['follow_up'],
        valid_from: '2026-01-01',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/appointments/schedules/:id/': {
    allow: STAFF,
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.schedule() } }),
  },
  'PATCH /api/appointments/schedules/:id/': {
    allow: ['head_doctor', 'admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.schedule() }, body: { capacity: 3 } }),
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/appointments/schedules/:id/': {
    allow: ['head_doctor', 'admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.schedule() } }),
  },
  'GET /api/appointments/exceptions/': { allow: STAFF, audit: 'none' },
  'POST /api/appointments/exceptions/': {
    allow: PROVIDERS_AND_MANAGERS,
    audit: 'event',
    request: (kit, caller) => ({
      body: {
        provider: providerFor(kit, caller),
        start_date: '2031-03-03',
        end_date: '2031-03-04',
        kind: 'leave',
        reason: 'Congé annuel',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/appointments/exceptions/:id/': {
    allow: PROVIDERS_AND_MANAGERS,
    audit: 'event',
    request: async (kit, caller) => ({
      params: { id: await kit.scheduleException(providerFor(kit, caller)) },
    }),
  },
  'GET /api/appointments/holidays/': { allow: STAFF, audit: 'none' },
  'POST /api/appointments/holidays/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({
      body: {
        date: new Date(Date.now() + (3000 + (serial++ % 5000)) * 86_400_000).toISOString().slice(0, 10),
        name: unique('Fête '),
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/appointments/holidays/:id/': {
    allow: ['admin'],
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.holiday() } }),
  },
  'GET /api/appointments/providers/': {
    allow: STAFF,
    audit: 'none',
    request: (kit) => ({ query: { department: kit.departments.MED } }),
    // Another hospital's department has no providers here: an empty answer.
    otherHospital: 'ignored',
  },
  'GET /api/appointments/slots/': {
    allow: STAFF,
    audit: 'none',
    request: (kit) => ({
      query: { provider: kit.provider, from: kit.slot().slice(0, 10), to: kit.slot().slice(0, 10) },
    }),
    otherHospital: 'ignored',
  },
  'GET /api/appointments/ics-link/': { allow: STAFF, audit: 'none' },
  'POST /api/appointments/ics-link/': { allow: STAFF, audit: 'event', massAssignment: { extras: 'refused' } },
  'DELETE /api/appointments/ics-link/': { allow: STAFF, audit: 'event' },
  'GET /api/appointments/ics/:token.ics': {
    allow: 'public',
    audit: 'event',
    request: async (kit) => ({ params: { token: await kit.icsToken() } }),
  },
  'GET /api/appointments/': { allow: BOOKERS, audit: 'search' },
  'POST /api/appointments/': {
    allow: BOOKERS,
    audit: 'create',
    request: async (kit) => ({
      body: {
        patient: (await kit.patient()).id,
        provider: kit.provider,
        department: kit.departments.MED,
        start: kit.slot(),
        appointment_type: 'follow_up',
        reason: 'Contrôle',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/appointments/today/': { allow: BOOKERS, audit: 'search' },
  'GET /api/appointments/:id/': {
    allow: BOOKERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.appointment()).id } }),
  },
  'PATCH /api/appointments/:id/': {
    allow: BOOKERS,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.appointment()).id },
      body: { notes: 'Apporter le carnet' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/confirm/': {
    allow: BOOKERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.appointment()).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/no-show/': {
    allow: BOOKERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.appointment()).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/complete/': {
    allow: BOOKERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.appointment('checked_in')).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/cancel/': {
    allow: BOOKERS,
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.appointment()).id },
      body: { reason: 'Empêchement' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/reschedule/': {
    allow: BOOKERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.appointment()).id }, body: { start: kit.slot() } }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/appointments/:id/check-in/': {
    allow: ['secretary', 'queue_manager'],
    audit: 'update',
    // The check-in (appointment.check_in) and the visit's assignment to the booked doctor (admission.assign).
    auditRows: 2,
    request: async (kit) => ({ params: { id: (await kit.appointment()).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/transfers/': {
    allow: STAFF,
    audit: 'search',
    request: async (kit) => ({ query: { hospitalization: (await kit.transfer()).stay, status: 'all' } }),
    otherHospital: 'empty',
  },
  'GET /api/transfers/facilities/': { allow: STAFF, audit: 'none', directory: true },
  'POST /api/transfers/': {
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit) => ({
      body: {
        hospitalization: (await kit.stay({ bed: true })).id,
        kind: 'internal',
        to_department: kit.departments.MED,
        reason: 'Prise en charge spécialisée',
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/transfers/:id/': {
    allow: STAFF,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.transfer()).id } }),
  },
  'POST /api/transfers/:id/accept/': {
    // The receiving department (the emergency department's own members), a head doctor; not the midwife.
    allow: PRACTITIONERS,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.transfer()).id } }),
    massAssignment: { extras: 'ignored', table: 'transfers', row: paramId },
  },
  'POST /api/transfers/:id/reject/': {
    allow: PRACTITIONERS,
    objectRule: ['midwife'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.transfer()).id }, body: { reason: 'Pas de place' } }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/transfers/:id/complete/': {
    allow: ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager'],
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.transfer('accepted')).id }, body: {} }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/transfers/:id/cancel/': {
    allow: PRACTITIONERS,
    audit: 'cancel',
    request: async (kit) => ({ params: { id: (await kit.transfer()).id } }),
    massAssignment: { extras: 'ignored', table: 'transfers', row: paramId },
  },
  'GET /api/departments/:id/execution-queue/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ params: { id: kit.departments.URG } }),
  },
  'GET /api/doctors/': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ query: { department: kit.departments.URG } }),
    otherHospital: 'empty',
  },
  'GET /api/doctors/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ params: { id: kit.staff.doctor } }),
  },
  'GET /api/doctors/:id/execution-queue/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ params: { id: kit.staff.doctor } }),
  },
  'GET /api/doctors/:id/workload/': {
    allow: STAFF,
    audit: 'none',
    request: (kit) => ({ params: { id: kit.staff.doctor } }),
  },

  // Pharmacy (issue 18, docs/decisions/0022-pharmacy-roles.md) -------------------------------------------------
  // The reference is global (no hospital rows): every member reads it; a medicine id is the same in both
  // hospitals and its detail shows only the caller's hospital's stock and ledger.
  'GET /api/medications/': {
    allow: EVERYONE,
    audit: 'none',
    request: (kit) => ({ query: { search: 'paracetamol', in_stock_at: kit.pharmacy } }),
  },
  'GET /api/medications/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.medication() } }),
    otherHospital: 'ignored',
  },
  'POST /api/prescriptions/check/': {
    allow: PRACTITIONERS,
    audit: 'read',
    request: (kit) => ({ body: { patient: kit.standing.patient, lines: [prescriptionLine(kit)] } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  // Issue 34 (decision 0055): whoever prescribes, dispenses or gives medicines checks a draft's safety.
  'POST /api/medication-safety/check/': {
    // Whoever prescribes, dispenses (the pharmacist too, decision 0070) or gives medicines.
    allow: ['doctor', 'head_doctor', 'midwife', 'nurse', 'queue_manager', 'pharmacist'],
    audit: 'read',
    request: (kit) => ({ body: { patient: kit.standing.patient, lines: [prescriptionLine(kit)] } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/prescriptions/': {
    allow: PRESCRIPTION_READERS,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient, status: 'all' } }),
    otherHospital: 'empty',
  },
  'POST /api/prescriptions/': {
    allow: PRACTITIONERS,
    audit: 'create',
    request: async (kit) => {
      const c = await kit.consultation();
      return { body: { patient: c.patient, consultation: c.id, lines: [prescriptionLine(kit)] } };
    },
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/prescriptions/:id/': {
    allow: PRESCRIPTION_READERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.prescription('signed')).id } }),
  },
  'PATCH /api/prescriptions/:id/': {
    // Its prescriber (each practitioner edits their own draft) or a head doctor.
    allow: PRACTITIONERS,
    audit: 'update',
    request: async (kit, caller) => {
      const rx = await kit.prescription('draft', prescriberFor(kit, caller));
      return {
        params: { id: rx.id },
        body: { version: rx.version, weight_kg: 70, lines: [prescriptionLine(kit)] },
      };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/prescriptions/:id/sign/': {
    allow: PRACTITIONERS,
    audit: 'update',
    request: async (kit, caller) => {
      const rx = await kit.prescription('draft', prescriberFor(kit, caller));
      return { params: { id: rx.id }, body: { version: rx.version } };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/prescriptions/:id/cancel/': {
    allow: PRACTITIONERS,
    audit: 'cancel',
    request: async (kit, caller) => ({
      params: { id: (await kit.prescription('signed', prescriberFor(kit, caller))).id },
      body: { reason: 'Erreur de posologie' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/prescriptions/:id/dispense/': {
    // The members of the pharmacy department the units leave from.
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'update',
    request: async (kit) => {
      const rx = await kit.prescription('signed');
      return {
        params: { id: rx.id },
        body: { pharmacy: kit.pharmacy, lines: [{ line: rx.line, quantity: 2 }] },
      };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/prescriptions/:id/refuse/': {
    // Issue 34: who may dispense may refuse to (a member of a pharmacy of the hospital), with a reason.
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'update',
    request: async (kit) => {
      const rx = await kit.prescription('signed');
      return { params: { id: rx.id }, body: { lines: [rx.line], reason: 'Allergie connue non justifiée' } };
    },
    massAssignment: { extras: 'refused' },
  },
  'GET /api/pharmacy/pharmacies/': { allow: PHARMACY_READERS, audit: 'none' },
  'GET /api/pharmacy/stock/': {
    allow: PHARMACY_READERS,
    audit: 'none',
    request: (kit) => ({ query: { pharmacy: kit.pharmacy } }),
    otherHospital: 'empty',
  },
  'GET /api/pharmacy/lots/': {
    allow: PHARMACY_READERS,
    audit: 'none',
    request: (kit) => ({ query: { pharmacy: kit.pharmacy, presentation: kit.presentation } }),
    otherHospital: 'empty',
  },
  'GET /api/pharmacy/movements/': {
    allow: PHARMACY_READERS,
    audit: 'none',
    request: (kit) => ({ query: { pharmacy: kit.pharmacy } }),
    otherHospital: 'empty',
  },
  'GET /api/pharmacy/alerts/': {
    allow: PHARMACY_READERS,
    audit: 'none',
    request: (kit) => ({ query: { pharmacy: kit.pharmacy } }),
    otherHospital: 'ignored',
  },
  'POST /api/pharmacy/receipts/': {
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'event',
    request: (kit) => ({
      body: {
        pharmacy: kit.pharmacy,
        supplier: 'CAMEMO',
        delivery_note: unique('BL-'),
        lines: [
          { presentation: kit.presentation, lot_number: unique('L'), expiry_date: inAYear(), quantity: 10 },
        ],
      },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'POST /api/pharmacy/lots/:id/corrections/': {
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.lot() }, body: { kind: 'inventory', counted: 9 } }),
    massAssignment: { extras: 'ignored', table: 'stock_lots', row: paramId },
  },
  'POST /api/pharmacy/stock-transfers/': {
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'event',
    request: async (kit) => ({
      body: { lot: await kit.lot(), to_pharmacy: kit.departments.URG, quantity: 2 },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'PUT /api/pharmacy/reorder-levels/': {
    allow: PHARMACY_MANAGERS,
    objectRule: NOT_PHARMACY_MEMBERS,
    audit: 'event',
    request: (kit) => ({ body: { pharmacy: kit.pharmacy, presentation: kit.presentation, level: 20 } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },

  // Medical acts (issue 21, docs/decisions/0027-billing-roles.md) ------------------------------------------------
  // The catalogue holds no patient data: every member reads it, the management changes it (events).
  'GET /api/medical-acts/': {
    allow: [...STAFF, 'cashier'],
    audit: 'none',
    request: () => ({ query: { search: 'consult' } }),
  },
  'POST /api/medical-acts/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: () => ({
      body: {
        code: unique('ECHO-').toUpperCase(),
        label_fr: 'Échographie abdominale',
        label_en: 'Abdominal ultrasound',
        category: 'imaging',
        tariffs: [{ payer_category: 'private', price: 1_500_000 }],
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/medical-acts/:id/': {
    allow: [...STAFF, 'cashier'],
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.act() } }),
  },
  'PATCH /api/medical-acts/:id/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.act() }, body: { label_en: 'Dressing' } }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/medical-acts/:id/tariffs/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: async (kit) => ({
      params: { id: await kit.act() },
      body: { payer_category: 'private', price: 3000, valid_from: inAYear() },
    }),
    massAssignment: { extras: 'refused' },
  },
  // Performed acts are patient data: clinicians, and the cash desk's members.
  'GET /api/medical-acts/performed/': {
    allow: ACT_RECORDERS,
    objectRule: ['queue_manager'],
    audit: 'search',
    request: (kit) => ({ query: { admission: kit.standing.admission } }),
  },
  'POST /api/medical-acts/performed/': {
    allow: ACT_RECORDERS,
    objectRule: ['queue_manager'],
    audit: 'create',
    request: async (kit) => ({
      body: { act: kit.consultationAct, admission: (await kit.admission()).id, quantity: 1 },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'POST /api/medical-acts/performed/:id/cancel/': {
    allow: ACT_RECORDERS,
    objectRule: ['queue_manager'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.performedAct()).id },
      body: { reason: 'Saisi par erreur' },
    }),
    massAssignment: { extras: 'refused' },
  },

  // Billing (issue 21, docs/decisions/0027-billing-roles.md) -----------------------------------------------------
  'GET /api/payers/': { allow: BILLING_READERS, objectRule: NOT_BILLING_MEMBERS, audit: 'none' },
  'POST /api/payers/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: () => ({
      body: {
        code: unique('MUT-').toUpperCase(),
        name: unique('Mutuelle '),
        kind: 'mutual',
        rules: [{ category: 'laboratory', rate_percent: 70, ceiling: 2_000_000 }],
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/payers/:id/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'none',
    request: async (kit) => ({ params: { id: await kit.payer() } }),
  },
  'PATCH /api/payers/:id/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: async (kit) => ({ params: { id: await kit.payer() }, body: { contact: '+243 81 000 00 01' } }),
    massAssignment: { extras: 'refused' },
  },
  // The claim lists patients: audited as a search.
  'GET /api/payers/:id/statement/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'search',
    request: async (kit) => ({
      params: { id: await kit.payer() },
      query: { from: '2026-01-01', to: today() },
    }),
  },
  'GET /api/patients/:id/coverages/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'POST /api/patients/:id/coverages/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.patient()).id },
      body: { payer: await kit.payer(), member_number: unique('M-') },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/patients/:id/coverages/:coverage_id/end/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit) => {
      const c = await kit.coverage();
      return { params: { id: c.patient, coverage_id: c.id }, body: {} };
    },
    massAssignment: { extras: 'refused' },
  },
  // A patient's balance: clinicians see it too (not the cash desk's details).
  'GET /api/patients/:id/balance/': {
    allow: [...STAFF, 'cashier'],
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'GET /api/invoices/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
  },
  // « Facturer une visite »'s list (decision 0088): who may assemble, not who may read the visits (the pure cashier).
  'GET /api/invoices/visits/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
  },
  'POST /api/invoices/assemble/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    request: async (kit) => ({ body: { admission: (await kit.consultation('completed')).admission } }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/invoices/:id/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.invoice('issued')).id } }),
  },
  'POST /api/invoices/:id/lines/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit) => ({
      params: { id: (await kit.invoice()).id },
      body: { act: kit.consultationAct, quantity: 1 },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/invoices/:id/lines/:line_id/remove/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit) => {
      const inv = await kit.invoice();
      return { params: { id: inv.id, line_id: inv.line }, body: { reason: 'Acte non réalisé' } };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/invoices/:id/lines/:line_id/discount/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit) => {
      const inv = await kit.invoice();
      return {
        params: { id: inv.id, line_id: inv.line },
        body: { amount: 1000, reason: 'Geste commercial' },
      };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/invoices/:id/issue/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit) => ({ params: { id: (await kit.invoice()).id } }),
  },
  'POST /api/invoices/:id/cancel/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'cancel',
    request: async (kit) => ({ params: { id: (await kit.invoice()).id }, body: { reason: 'Doublon' } }),
    massAssignment: { extras: 'refused' },
  },
  // Credit notes: the cash desk, the head doctor and administrators.
  'POST /api/invoices/:id/credit-note/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.invoice('issued')).id },
      body: { reason: 'Erreur de tarif' },
    }),
    massAssignment: { extras: 'refused' },
  },
  // Payments need the caller's own open cash session (made here for the billing members).
  'POST /api/payments/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    request: async (kit, caller) => {
      await atTheCashDesk(kit, caller);
      return { body: { invoice: (await kit.invoice('issued')).id, method: 'cash', amount: 500 } };
    },
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'POST /api/payments/:id/refund/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'update',
    request: async (kit, caller) => {
      const p = await kit.payment();
      await atTheCashDesk(kit, caller);
      return { params: { id: p.id }, body: { amount: 100, reason: 'Trop perçu' } };
    },
    massAssignment: { extras: 'refused' },
  },
  // Mobile money pushed to the phone (decision 0040): a pending request in the cashier's own open session.
  'POST /api/payments/mobile-money/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    request: async (kit, caller) => {
      await atTheCashDesk(kit, caller);
      return {
        body: {
          invoice: (await kit.invoice('issued')).id,
          operator: 'mtn_momo',
          phone: '+243 810 000 001',
          amount: 500,
        },
      };
    },
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  // The operator's callback is public: no session, it is authenticated by its HMAC signature (X-Timestamp,
  // X-Signature over timestamp + "." + raw body, the hospital's secret for the operator, 5 minutes). The harness
  // sends no signature: every caller gets the same 401 and nothing is recorded. Signed callbacks, replays and
  // duplicates are tested in modules/billing/mobile-money.test.ts.
  'POST /api/payments/mobile-money/callback/:operator/': {
    allow: 'public',
    audit: 'none',
    status: 401,
    request: () => ({
      params: { operator: 'mtn_momo' },
      body: {
        request_id: '01a21656-0000-7000-8000-000000000000',
        transaction_id: 'MP-UNSIGNED-0001',
        status: 'succeeded',
        amount: 500,
        currency: 'CDF',
      },
    }),
  },
  'GET /api/receipts/:id/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.payment()).receipt } }),
  },
  // Deposits on admission (decision 0036): a payment on the stay's draft invoice, in the cashier's open session.
  'GET /api/hospitalizations/:id/deposits/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.stay()).id } }),
  },
  // The cash desk finds the open stay taking a deposit (decision 0088): the stay's deposits' readers, not the stay's.
  'GET /api/deposits/stays/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'search',
    request: () => ({ query: { search: 'a' } }),
  },
  // A stay without an invoice gets its draft first: the invoice's creation and the deposit are both recorded.
  'POST /api/hospitalizations/:id/deposits/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'create',
    auditRows: 2,
    request: async (kit, caller) => {
      await atTheCashDesk(kit, caller);
      return { params: { id: (await kit.stay()).id }, body: { method: 'cash', amount: 20_000 } };
    },
    massAssignment: { extras: 'refused' },
  },
  // The exchange-rate table (decision 0040): no patient data; the management sets a rate (an event).
  'GET /api/exchange-rates/': { allow: BILLING_READERS, objectRule: NOT_BILLING_MEMBERS, audit: 'none' },
  'GET /api/exchange-rates/current/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'none',
  },
  'POST /api/exchange-rates/': {
    allow: BILLING_MANAGERS,
    audit: 'event',
    request: () => ({ body: { base: 'EUR', rate: '2850.5', valid_on: '2026-01-15' } }),
    massAssignment: { extras: 'refused' },
  },
  // Cash sessions hold no patient data; opening and closing are events.
  'GET /api/cash-sessions/': { allow: BILLING_READERS, objectRule: NOT_BILLING_MEMBERS, audit: 'none' },
  'POST /api/cash-sessions/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'event',
    request: async (kit, caller) => {
      const cashier = cashierOf(kit, caller);
      if (cashier) await kit.closeCashSession(cashier);
      return { body: { floats: [{ currency: 'CDF', amount: 50_000 }] } };
    },
    massAssignment: { extras: 'refused' },
  },
  'GET /api/cash-sessions/current/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'none',
    request: async (kit, caller) => {
      await atTheCashDesk(kit, caller);
      return {};
    },
  },
  'POST /api/cash-sessions/:id/close/': {
    allow: BILLING_WORKERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'event',
    request: async (kit, caller) => ({
      params: { id: await kit.cashSession(cashierOf(kit, caller) ?? 'secretary') },
      body: { counted: [{ currency: 'CDF', amount: 9_500 }], note: 'Billet déchiré' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/cash-sessions/:id/report/': {
    allow: BILLING_READERS,
    objectRule: NOT_BILLING_MEMBERS,
    audit: 'none',
    // A cashier reads her own sessions' reports only (issue 36): the cashier reads hers, the others the secretary's.
    request: async (kit, caller) => ({
      params: { id: await kit.cashSession(caller.group === 'cashier' ? 'cashier' : 'secretary') },
    }),
  },

  // Documents (issue 19, docs/decisions/0023-documents.md) -----------------------------------------------------
  // Models: every member reads them; administrators and head doctors copy, adapt and activate them.
  'GET /api/document-templates/': { allow: STAFF, audit: 'none' },
  'GET /api/document-templates/variables/': {
    allow: STAFF,
    audit: 'none',
    request: () => ({ query: { kind: 'prescription' } }),
  },
  'GET /api/document-templates/:id/': {
    allow: STAFF,
    audit: 'none',
    request: async (kit) => ({ params: { id: (await kit.template()).id } }),
  },
  'POST /api/document-templates/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'event',
    request: () => ({
      body: {
        kind: 'medical_certificate',
        language: 'fr',
        paper: 'A4',
        name: unique('Certificat '),
        body: '# Certificat\n\n{{ patient.full_name }}, {{ date.today_long }}',
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'PATCH /api/document-templates/:id/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'event',
    request: async (kit) => {
      const t = await kit.template();
      return { params: { id: t.id }, body: { version: t.version, name: unique('Courrier ') } };
    },
    massAssignment: { extras: 'refused' },
  },
  'POST /api/document-templates/:id/activate/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.template()).id } }),
  },
  'POST /api/document-templates/:id/archive/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'event',
    request: async (kit) => ({ params: { id: (await kit.template()).id } }),
  },
  'POST /api/document-templates/preview/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'none',
    request: () => ({
      body: {
        kind: 'prescription',
        language: 'fr',
        paper: 'A5',
        body: '# Ordonnance\n{{ patient.full_name }}',
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/document-templates/preview/pdf/': {
    allow: TEMPLATE_MANAGERS,
    audit: 'none',
    request: () => ({
      body: { kind: 'free_letter', language: 'en', paper: 'A4', body: '# Letter\n{{ patient.full_name }}' },
    }),
    massAssignment: { extras: 'refused' },
  },
  // Issued documents: the route lets the issuing groups through, each kind its own issuers (a medical certificate:
  // practitioners; secretaries and administrators issue invoices and receipts once billing exists).
  'POST /api/documents/draft/': {
    allow: DOCUMENT_ISSUERS,
    objectRule: ['secretary', 'admin'],
    audit: 'read',
    request: async (kit) => ({
      body: { kind: 'medical_certificate', source: { type: 'patient', id: (await kit.patient()).id } },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'POST /api/documents/': {
    allow: DOCUMENT_ISSUERS,
    objectRule: ['secretary', 'admin'],
    audit: 'create',
    request: async (kit) => ({
      body: { kind: 'sick_leave_certificate', source: { type: 'patient', id: (await kit.patient()).id } },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  // Secretaries read the administrative kinds only: the list leaves the others out, a certificate is refused.
  'GET /api/documents/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  'GET /api/documents/:id/': {
    allow: STAFF,
    objectRule: ['secretary'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.document()).id } }),
  },
  'GET /api/documents/:id/pdf/': {
    allow: STAFF,
    objectRule: ['secretary'],
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.document()).id } }),
  },
  // Its author (the hospital's doctor), a head doctor or an administrator.
  'POST /api/documents/:id/cancel/': {
    allow: DOCUMENT_ISSUERS,
    objectRule: ['midwife', 'secretary'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.document()).id },
      body: { reason: 'Erreur de patient' },
    }),
    massAssignment: { extras: 'refused' },
  },
  // The public verification page: authenticity only, rate-limited, no hospital scope.
  'GET /api/verify/:token/': {
    allow: 'public',
    audit: 'none',
    request: async (kit) => ({ params: { token: (await kit.document()).token } }),
  },
  // Patient documents: every member adds and reads them; the uploader, a head doctor or an administrator deletes.
  'GET /api/patient-documents/': {
    allow: STAFF,
    audit: 'search',
    request: (kit) => ({ query: { patient: kit.standing.patient } }),
    otherHospital: 'empty',
  },
  // A multipart upload: the harness sends JSON bodies, which the route refuses (400); documents.test.ts uploads.
  'POST /api/patient-documents/': { allow: STAFF, audit: 'create', status: 'not-refused' },
  'GET /api/patient-documents/:id/': {
    allow: STAFF,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.patientDocument()).id } }),
  },
  'GET /api/patient-documents/:id/file/': {
    allow: STAFF,
    audit: 'read',
    request: async (kit) => ({ params: { id: (await kit.patientDocument()).id } }),
  },
  'POST /api/patient-documents/:id/delete/': {
    allow: STAFF,
    objectRule: ['doctor', 'midwife', 'queue_manager', 'nurse'],
    audit: 'cancel',
    request: async (kit) => ({
      params: { id: (await kit.patientDocument()).id },
      body: { reason: 'Doublon' },
    }),
    massAssignment: { extras: 'refused' },
  },
  // Notes and dictation (issue 23, docs/decisions/0034-notes-dictation.md) ------------------------------------
  // Personal notes: every member's own; another person's is a 404 (no object rule: it does not exist for them).
  'GET /api/notes/': { allow: EVERYONE, audit: 'none' },
  'POST /api/notes/': {
    allow: EVERYONE,
    audit: 'event',
    request: () => ({ body: { title: unique('Note '), body: '**Rappel**', tags: ['garde'] } }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/notes/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => ({ params: { id: await kit.note(memberFor(kit, caller)) } }),
  },
  'PATCH /api/notes/:id/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({
      params: { id: await kit.note(memberFor(kit, caller)) },
      body: { pinned: true },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/notes/:id/delete/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({ params: { id: await kit.note(memberFor(kit, caller)) } }),
  },
  // Patient notes: the readers of the clinical record (not secretaries); written by the clinical staff, changed
  // by their author (the harness's note is the caller's own).
  'GET /api/patients/:id/notes/': {
    allow: PATIENT_NOTE_READERS,
    audit: 'read',
    request: (kit) => ({ params: { id: kit.standing.patient } }),
  },
  'POST /api/patients/:id/notes/': {
    allow: PATIENT_NOTE_WRITERS,
    audit: 'create',
    request: async (kit) => ({
      params: { id: (await kit.patient()).id },
      body: { title: unique('Contexte '), body: '- vit seule' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'PATCH /api/patient-notes/:id/': {
    allow: PATIENT_NOTE_WRITERS,
    audit: 'update',
    request: async (kit, caller) => ({
      params: { id: (await kit.patientNote(practitionerOrNurseFor(kit, caller))).id },
      body: { pinned: true },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/patient-notes/:id/delete/': {
    allow: PATIENT_NOTE_WRITERS,
    audit: 'cancel',
    request: async (kit, caller) => ({
      params: { id: (await kit.patientNote(practitionerOrNurseFor(kit, caller))).id },
    }),
  },
  // Dictation: every member dictates (a recording is a patient document, which every member adds).
  'GET /api/dictation/config/': { allow: EVERYONE, audit: 'none' },
  // A multipart upload: the harness sends JSON bodies, which the route refuses (400); dictation.test.ts uploads.
  'POST /api/dictation/transcriptions/': { allow: STAFF, audit: 'create', status: 'not-refused' },
  'GET /api/dictation/recordings/': { allow: EVERYONE, audit: 'search' },
  'POST /api/dictation/recordings/:id/typed/': {
    allow: EVERYONE,
    audit: 'update',
    request: async (kit, caller) => ({ params: { id: (await kit.recording(memberFor(kit, caller))).id } }),
  },
  // Reporting (issue 24, docs/decisions/0035-reporting.md) ---------------------------------------------------------
  // Figures without patient data for the hospital's management; a department of the other hospital is refused.
  ...Object.fromEntries(
    ['activity', 'flow', 'diagnoses', 'laboratory', 'pharmacy', 'inpatient', 'billing'].map((section) => [
      `GET /api/stats/${section}/`,
      {
        allow: STATS_READERS,
        audit: 'none',
        request: (kit: HospitalKit) => ({
          query: { from: aMonthAgo(), to: today(), department: kit.departments.URG },
        }),
        otherHospital: 'rejected',
      } satisfies RoutePolicy,
    ]),
  ),
  // The consultations behind a figure: head doctors only (the consultations list gives them every consultation;
  // an administrator reads none, so gets the numbers only).
  'GET /api/stats/drilldown/': {
    allow: ['head_doctor'],
    audit: 'search',
    request: (kit) => ({
      query: {
        from: aMonthAgo(),
        to: today(),
        department: kit.departments.URG,
        disease: 'malaria_confirmed',
      },
    }),
    otherHospital: 'rejected',
  },
  'GET /api/dashboard/overview/': { allow: STATS_READERS, audit: 'none' },
  // The specification's indexes (issue 36, decision 0061): every member reads her own dashboards (no patient
  // data, no figures); the statistics sections' list is the figures' readers'.
  'GET /api/dashboard/': { allow: EVERYONE, audit: 'none' },
  'GET /api/stats/': { allow: STATS_READERS, audit: 'none' },
  // DHIS2 export (decision 0039): the mapping is the hospital's administrators' (a change is an event); the data
  // value set is a figure reader's, audited as an event (the figures leave for another system).
  'GET /api/stats/dhis2/mapping/': { allow: ['admin'], audit: 'none' },
  'PUT /api/stats/dhis2/mapping/': {
    allow: ['admin'],
    audit: 'event',
    request: () => ({
      body: {
        org_unit: 'DiszpKrYNg8',
        monthly_data_set: 'pBOMPrpg1QX',
        rows: [
          {
            indicator: 'idsr.cholera.total',
            data_element: 'eY5ehpbEsB7',
            category_option_combo: 'HllvX50cXC0',
          },
        ],
      },
    }),
    massAssignment: { extras: 'refused' },
  },
  'GET /api/stats/dhis2/dataValueSet/': {
    allow: STATS_READERS,
    audit: 'event',
    request: async (kit) => {
      await kit.dhis2Mapping();
      return { query: { period: today().slice(0, 7).replace('-', '') } };
    },
  },
  // Notifications (each user's own) -----------------------------------------------------------------------
  // Messaging (issue 23, docs/decisions/0033-chat.md): every member; a conversation is seen by its members only
  // (a non-member, like another hospital, gets 404). Reads carry no audit row (a referenced patient shows as a card
  // opening the record, which is audited there); every write is an event.
  'GET /api/chat/conversations/': { allow: EVERYONE, audit: 'none' },
  'POST /api/chat/conversations/': {
    allow: EVERYONE,
    audit: 'event',
    request: (kit) => ({
      body: { kind: 'group', title: unique('Équipe '), members: [kit.staff.nurse, kit.staff.doctor] },
    }),
    otherHospital: 'rejected',
    massAssignment: { extras: 'refused' },
  },
  'GET /api/chat/conversations/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => ({ params: { id: await conversationFor(kit, caller) } }),
  },
  'GET /api/chat/conversations/:id/messages/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => ({ params: { id: await conversationFor(kit, caller) } }),
  },
  'POST /api/chat/conversations/:id/messages/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({
      params: { id: await conversationFor(kit, caller) },
      body: { id: randomUUID(), body: 'Le patient du box 2 est prêt.' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'POST /api/chat/conversations/:id/read/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => {
      const m = await messageFor(kit, caller);
      return { params: { id: m.conversation }, body: { message: m.id } };
    },
    massAssignment: { extras: 'refused' },
  },
  'PATCH /api/chat/messages/:id/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({
      params: { id: (await messageFor(kit, caller)).id },
      body: { body: 'Corrigé : box 3.' },
    }),
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/chat/messages/:id/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({ params: { id: (await messageFor(kit, caller)).id } }),
  },
  // Group membership (decision 0042): the caller creates the group (its creator manages it) and adds a colleague,
  // or leaves it; another hospital's group is 404.
  'POST /api/chat/conversations/:id/members/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => {
      const me = memberFor(kit, caller);
      return {
        params: { id: await kit.chatGroupOf(me) },
        body: { users: [me === kit.staff.nurse ? kit.staff.doctor : kit.staff.nurse] },
      };
    },
    massAssignment: { extras: 'refused' },
  },
  'DELETE /api/chat/conversations/:id/members/:user/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => {
      const me = memberFor(kit, caller);
      return { params: { id: await kit.chatGroupOf(me), user: me } };
    },
  },
  // Attachments (decision 0042): a multipart upload (the harness sends JSON, which the route refuses: 400;
  // chat.test.ts uploads); the file is read by the members of its conversation only (others: 404).
  'POST /api/chat/conversations/:id/attachments/': {
    allow: EVERYONE,
    audit: 'event',
    status: 'not-refused',
    request: async (kit, caller) => ({ params: { id: await conversationFor(kit, caller) } }),
  },
  'GET /api/chat/messages/:id/attachment/': {
    allow: EVERYONE,
    audit: 'event',
    request: async (kit, caller) => ({ params: { id: await kit.chatAttachment(memberFor(kit, caller)) } }),
  },
  'GET /api/chat/unread/': { allow: EVERYONE, audit: 'none' },
  'GET /api/chat/search/': { allow: EVERYONE, audit: 'none', request: () => ({ query: { search: 'box' } }) },
  'GET /api/chat/staff/': { allow: EVERYONE, audit: 'none' },
  'GET /api/notifications/': { allow: EVERYONE, audit: 'none' },
  'POST /api/notifications/mark-read/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => ({
      body: { notification_ids: [await kit.notification(memberFor(kit, caller))] },
    }),
    otherHospital: 'ignored',
    massAssignment: {
      extras: 'ignored',
      table: 'notifications',
      row: (_, parts) => (parts.body as { notification_ids: string[] }).notification_ids[0]!,
    },
  },
  'DELETE /api/notifications/:id/': {
    allow: EVERYONE,
    audit: 'none',
    request: async (kit, caller) => ({ params: { id: await kit.notification(memberFor(kit, caller)) } }),
  },
};
