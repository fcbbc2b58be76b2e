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
