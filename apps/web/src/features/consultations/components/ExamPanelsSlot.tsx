/**
 * EXAMS SLOT — the spot beside the consultation form reserved for the exams module: the patient's recent
 * results and this consultation's exam orders (issue 7, "Exams"). The exams work puts its panels (from
 * apps/web/src/lib/clinical) here; until then it renders nothing. It receives what those panels need.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';

export interface ExamPanelsSlotProps {
  consultation: TConsultationDetail;
  /** The user may order exams from this consultation (it is in progress and they may edit it). */
  canOrder: boolean;
}

export function ExamPanelsSlot(_props: ExamPanelsSlotProps) {
  return null;
}
