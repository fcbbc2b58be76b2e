/**
 * The admission (visit) status machine (DESIGN §5 item 2):
 * `waiting → assigned → in_consultation → completed | hospitalized | transferred | cancelled`.
 * An assignment may be withdrawn (assigned → waiting); a visit is cancelled (with a reason) at any point before it ends.
 */
export const ADMISSION_STATUSES = [
  'waiting',
  'assigned',
  'in_consultation',
  'completed',
  'hospitalized',
  'transferred',
  'cancelled',
] as const;
export type AdmissionStatus = (typeof ADMISSION_STATUSES)[number];

export const ADMISSION_TYPES = ['outpatient', 'emergency', 'maternity', 'inpatient'] as const;
export type AdmissionType = (typeof ADMISSION_TYPES)[number];

/**
 * The visit types each kind of department receives (issue 25): the emergency department takes emergencies
 * only (an outpatient consultation is not registered there), a maternity visit goes to a maternity, and the
 * laboratory, imaging, pharmacy, billing and administration receive no visits. Kinds are those of
 * `DEPARTMENT_KINDS` (contracts/structure.ts); an unknown kind receives every type.
 */
export const ADMISSION_TYPES_BY_DEPARTMENT_KIND: Readonly<Record<string, readonly AdmissionType[]>> = {
  emergency: ['emergency'],
  maternity: ['maternity', 'outpatient', 'inpatient', 'emergency'],
  clinical: ['outpatient', 'inpatient', 'emergency'],
  surgery: ['outpatient', 'inpatient', 'emergency'],
  pediatrics: ['outpatient', 'inpatient', 'emergency'],
  laboratory: [],
  imaging: [],
  pharmacy: [],
  billing: [],
  administration: [],
};

/**
 * Whether a department of `kind` receives patients (visits, stays, transfers, appointments): not the laboratory,
 * imaging, pharmacy, cash desk ("Caisse", kind billing) nor administration (issue 37). The server refuses a visit to
 * the others; the forms offer only these.
 */
export function receivesPatients(kind: string): boolean {
  return admissionTypesFor(kind).length > 0;
}

/** The visit types a department of `kind` receives. */
export function admissionTypesFor(kind: string): readonly AdmissionType[] {
  return ADMISSION_TYPES_BY_DEPARTMENT_KIND[kind] ?? ADMISSION_TYPES;
}

export const ADMISSION_TRANSITIONS: Readonly<Record<AdmissionStatus, readonly AdmissionStatus[]>> = {
  waiting: ['assigned', 'cancelled'],
  assigned: ['assigned', 'waiting', 'in_consultation', 'cancelled'],
  in_consultation: ['completed', 'hospitalized', 'transferred', 'cancelled'],
  completed: [],
  hospitalized: [],
  transferred: [],
  cancelled: [],
};

/** Statuses after which nothing more happens to the visit. */
export const FINAL_ADMISSION_STATUSES: readonly AdmissionStatus[] = [
  'completed',
  'hospitalized',
  'transferred',
  'cancelled',
];

export function canMoveAdmission(from: AdmissionStatus, to: AdmissionStatus): boolean {
  return ADMISSION_TRANSITIONS[from].includes(to);
}

/** Visits still in the department (the live queues). */
export const OPEN_ADMISSION_STATUSES: readonly AdmissionStatus[] = ['waiting', 'assigned', 'in_consultation'];
