/**
 * The lines of the prescribing form as the form holds them (numbers may be '' while typed), and their bodies
 * for the API: the contract's line input, and the lines complete enough for the safety check.
 */
import {
  type MedicationRoute,
  type TFrequency,
  type TPrescriptionLine,
  type TPrescriptionLineInput,
  type TPresentation,
  ZPrescriptionLineInput,
} from '@greensen/shared/contracts/pharmacy';

export interface LineValues {
  key: string;
  medication: { id: string; inn_fr: string; inn_en: string; atc_code: string | null } | null;
  /** The presentations of the medicine known to the form (the picked medicine's, or the draft line's). */
  presentations: TPresentation[];
  presentation: string | null;
  dose: number | string;
  dose_unit: string;
  route: MedicationRoute;
  frequency: TFrequency;
  duration_days: number | string;
  quantity: number | string;
  instructions: string;
  allergy_override_reason: string;
}

export interface PrescriptionValues {
  weight_kg: number | string;
  notes: string;
  lines: LineValues[];
  [key: string]: unknown;
}

/** The shortest override reason the contract accepts. */
export const OVERRIDE_MIN = 5;

let keys = 0;
const nextKey = () => `line-${++keys}`;

export function emptyLine(): LineValues {
  return {
    key: nextKey(),
    medication: null,
    presentations: [],
    presentation: null,
    dose: 1,
    dose_unit: '',
    route: 'oral',
    frequency: { kind: 'times_per_day', times: 3 },
    duration_days: '',
    quantity: '',
    instructions: '',
    allergy_override_reason: '',
  };
}

export function lineFromPrescription(line: TPrescriptionLine): LineValues {
  return {
    key: nextKey(),
    medication: line.medication,
    presentations: [line.presentation],
    presentation: line.presentation.id,
    dose: line.dose,
    dose_unit: line.dose_unit,
    route: line.route,
    frequency: line.frequency,
    duration_days: line.duration_days ?? '',
    quantity: line.quantity,
    instructions: line.instructions ?? '',
    allergy_override_reason: line.allergy_override_reason ?? '',
  };
}

/** A number field's value for the API: null when empty; NaN (a refused text, decision 0056) kept for the contract to refuse. */
export function numberOrNull(value: number | string | null): number | null {
  return typeof value === 'number' && (Number.isFinite(value) || Number.isNaN(value)) ? value : null;
}

/** The line as the API takes it (unvalidated: the form validates it with the contract). */
export function lineInput(line: LineValues): TPrescriptionLineInput {
  return {
    presentation: line.presentation ?? '',
    dose: numberOrNull(line.dose) as number,
    dose_unit: line.dose_unit,
    route: line.route,
    frequency: line.frequency,
    duration_days: numberOrNull(line.duration_days),
    quantity: numberOrNull(line.quantity),
    instructions: line.instructions.trim() || null,
    allergy_override_reason: line.allergy_override_reason.trim() || null,
  };
}

/**
 * The lines the safety check can look at (complete ones; a reason still too short is left out) and, for each,
 * the index of its line in the form: the check's warnings and quantities name lines by their index in `lines`.
 */
export function checkableLines(lines: readonly LineValues[]): {
  lines: TPrescriptionLineInput[];
  formIndex: number[];
} {
  const result: { lines: TPrescriptionLineInput[]; formIndex: number[] } = { lines: [], formIndex: [] };
  lines.forEach((line, index) => {
    const input = lineInput(line);
    if ((input.allergy_override_reason ?? '').length < OVERRIDE_MIN) input.allergy_override_reason = null;
    const parsed = ZPrescriptionLineInput.safeParse(input);
    if (parsed.success) {
      result.lines.push(input);
      result.formIndex.push(index);
    }
  });
  return result;
}
