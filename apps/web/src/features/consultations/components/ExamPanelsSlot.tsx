/**
 * EXAMS SLOT — the spot beside the consultation form reserved for the exams module: this consultation's exam
 * orders (ordering while the consultation may be edited) and the patient's recent results (issue 7, "Exams").
 * The panels live in apps/web/src/lib/clinical; they hide themselves for users without the exams module.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { ConsultationExamsPanel } from '../../../lib/clinical/components/ConsultationExamsPanel';
import { PatientRecentResults } from '../../../lib/clinical/components/PatientRecentResults';

export interface ExamPanelsSlotProps {
  consultation: TConsultationDetail;
  /** The user may order exams from this consultation (it is in progress and they may edit it). */
  canOrder: boolean;
}

export function ExamPanelsSlot({ consultation, canOrder }: ExamPanelsSlotProps) {
  return (
    <>
      <ConsultationExamsPanel
        consultationId={consultation.id}
        patient={consultation.patient}
        canOrder={canOrder}
      />
      <PatientRecentResults patientId={consultation.patient.id} />
    </>
  );
}
