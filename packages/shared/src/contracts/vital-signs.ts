/**
 * One series of vital signs per patient (issue 37): a set is recorded on the ward, at triage or in a consultation,
 * each with its NEWS2; the care pages and the nurse's dashboard read the same series.
 */
import { z } from 'zod';
import { NEWS2_ESCALATIONS, NEWS2_RISKS } from '../domain/news2.js';
import { zDateTime } from './common.js';

/** Where a set of vital signs was recorded. */
export const VITALS_SOURCES = ['ward', 'triage', 'consultation'] as const;

/** The NEWS2 of a patient's latest set (null where shown: none, or a child — NEWS2 is from 16 years). */
export const ZNews2Summary = z.object({
  score: z.number().int(),
  risk: z.enum(NEWS2_RISKS),
  escalation: z.enum(NEWS2_ESCALATIONS),
  complete: z.boolean(),
  recorded_at: zDateTime,
});
export type TNews2Summary = z.infer<typeof ZNews2Summary>;
