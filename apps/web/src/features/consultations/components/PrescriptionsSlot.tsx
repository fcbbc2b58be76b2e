/**
 * PRESCRIPTIONS SLOT — the spot under the consultation form reserved for the pharmacy module: this
 * consultation's prescriptions, and prescribing while the consultation may be edited (issue 18). The panel lives
 * in apps/web/src/lib/clinical; it hides itself for users without the pharmacy module.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { PrescriptionsPanel } from '../../../lib/clinical/components/PrescriptionsPanel';

export function PrescriptionsSlot({
  consultation,
  canPrescribe,
}: {
  consultation: TConsultationDetail;
  /** The user may prescribe from this consultation (it is in progress and they may edit it). */
  canPrescribe: boolean;
}) {
  return (
    <PrescriptionsPanel
      source={{ consultation: consultation.id }}
      patient={consultation.patient}
      canPrescribe={canPrescribe}
    />
  );
}
