/**
 * A bed's statuses (issue 15), plain values apart from the structure's schemas (contracts/structure.ts re-exports
 * them): the bed board and its counts show them without loading and building every schema (issue 38).
 */
export const BED_STATUSES = ['free', 'occupied', 'cleaning', 'out_of_service'] as const;
export type BedStatus = (typeof BED_STATUSES)[number];
/** The statuses staff set by hand: `occupied` comes with a patient (inpatient stays), never from this form. */
export const SETTABLE_BED_STATUSES = ['free', 'cleaning', 'out_of_service'] as const;
