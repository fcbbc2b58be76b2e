import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import type { LineDbRow, PrescriptionDbRow } from '../pharmacy/pharmacy.repository.js';
import { metaOf } from './fhir.bundle.js';
import { ATC, UCUM } from './fhir.systems.js';

/** The app's prescription statuses by the FHIR status that states them (MedicationRequest.status). */
export const REQUEST_STATUS: Record<string, readonly PrescriptionDbRow['status'][]> = {
  draft: ['draft'],
  active: ['signed', 'partially_dispensed'],
  completed: ['dispensed'],
  cancelled: ['cancelled'],
};
const statusOf = (s: PrescriptionDbRow['status']) =>
  Object.keys(REQUEST_STATUS).find((k) => REQUEST_STATUS[k]!.includes(s)) ?? 'unknown';

/** A MedicationRequest's id: the prescription's and the line's position (`{prescription}-{position}`). */
export const medicationRequestId = (prescriptionId: string, position: number) =>
  `${prescriptionId}-${position}`;
export function parseMedicationRequestId(id: string) {
  const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d{1,4})$/.exec(
    id.toLowerCase(),
  );
  return m ? { prescriptionId: m[1]!, position: Number(m[2]) } : null;
}

/** The timing of a frequency (FHIR Timing.repeat). */
function repeatOf(f: TFrequency, days: number | null) {
  const bounds = days ? { boundsDuration: { value: days, unit: 'd', system: UCUM, code: 'd' } } : {};
  switch (f.kind) {
    case 'times_per_day':
      return { ...bounds, frequency: f.times, period: 1, periodUnit: 'd' };
    case 'every_hours':
      return { ...bounds, frequency: 1, period: f.hours, periodUnit: 'h' };
    case 'at_night':
      return { ...bounds, frequency: 1, period: 1, periodUnit: 'd', when: ['NIGHT'] };
    case 'as_needed':
      return { ...bounds, frequency: f.max_per_day, period: 1, periodUnit: 'd' };
    case 'once':
      return { count: 1 };
  }
}

/** One line of a prescription as a FHIR R4 MedicationRequest (ATC code, dose, timing, quantity to dispense). */
export function toFhirMedicationRequest(rx: PrescriptionDbRow, line: LineDbRow, lang: 'fr' | 'en') {
  const frequency = (
    typeof line.frequency === 'string' ? JSON.parse(line.frequency) : line.frequency
  ) as TFrequency;
  const inn = lang === 'fr' ? line.inn_fr : line.inn_en;
  const updated = rx.cancelled_at ?? rx.signed_at ?? rx.created_at;
  const refused = line.refused_at !== null;
  return {
    resourceType: 'MedicationRequest',
    id: medicationRequestId(rx.id, line.position),
    meta: metaOf(rx.version, updated),
    identifier: [{ system: 'urn:greensen:prescription-line', value: line.line_id }],
    status: refused && statusOf(rx.status) === 'active' ? 'stopped' : statusOf(rx.status),
    ...(rx.status === 'cancelled' && rx.cancel_reason
      ? { statusReason: { text: rx.cancel_reason } }
      : refused && line.refusal_reason
        ? { statusReason: { text: line.refusal_reason } }
        : {}),
    intent: 'order',
    medicationCodeableConcept: {
      ...(line.atc_code ? { coding: [{ system: ATC, code: line.atc_code, display: inn }] } : {}),
      text: `${inn} ${line.strength}`,
    },
    subject: { reference: `Patient/${rx.p_id}` },
    authoredOn: new Date(rx.signed_at ?? rx.created_at).toISOString(),
    requester: { reference: `Practitioner/${rx.prescriber_id}` },
    groupIdentifier: { system: 'urn:greensen:prescription-number', value: rx.number },
    ...(line.instructions ? { note: [{ text: line.instructions }] } : {}),
    dosageInstruction: [
      {
        sequence: 1,
        ...(line.instructions ? { patientInstruction: line.instructions } : {}),
        timing: { repeat: repeatOf(frequency, line.duration_days) },
        ...(frequency.kind === 'as_needed' ? { asNeededBoolean: true } : {}),
        route: { text: line.line_route },
        doseAndRate: [{ doseQuantity: { value: Number(line.dose), unit: line.dose_unit } }],
      },
    ],
    dispenseRequest: { quantity: { value: line.quantity, unit: line.unit } },
  };
}
