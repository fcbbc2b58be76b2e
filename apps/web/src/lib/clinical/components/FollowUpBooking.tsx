/**
 * "Prendre le rendez-vous de suivi" (issue 22): a consultation's or a discharge's follow-up date proposes the
 * appointment. It opens the appointments page's booking form, prefilled with the patient, the doctor and the date
 * (passed in the navigation's state, never in the address: no patient in URLs, logs or history). Shown to those who
 * may book, when the date is today or later.
 */
import { Button } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useModuleAllowed, usePermissions } from '../../permissions';
import { useLocalizedPath } from '../../use-localized-path';
import type { FixedPatient } from './PatientPicker';

/** What the appointments page reads from the navigation's state to open its booking form. */
export interface FollowUpRequest {
  patient: FixedPatient;
  /** The follow-up date (`YYYY-MM-DD`): free slots are searched from it. */
  from: string;
  provider: string | null;
  department: string | null;
}

export const FOLLOW_UP_STATE_KEY = 'followUp';

/** The follow-up request carried by a navigation's state, if any. */
export function followUpRequestOf(state: unknown): FollowUpRequest | null {
  if (!state || typeof state !== 'object') return null;
  const request = (state as Record<string, unknown>)[FOLLOW_UP_STATE_KEY];
  if (!request || typeof request !== 'object') return null;
  const r = request as Partial<FollowUpRequest>;
  return r.patient?.id && typeof r.from === 'string' ? (r as FollowUpRequest) : null;
}

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

export function FollowUpBookingButton({
  patient,
  date,
  provider = null,
  department = null,
}: {
  patient: FixedPatient;
  date: string | null | undefined;
  provider?: string | null;
  department?: string | null;
}) {
  const { t } = useTranslation('common');
  const { can } = usePermissions();
  const allowed = useModuleAllowed('appointments');
  const to = useLocalizedPath();
  if (!date || date < today() || !allowed || !can('appointment.book')) return null;
  const request: FollowUpRequest = {
    patient: { id: patient.id, full_name: patient.full_name, record_number: patient.record_number },
    from: date,
    provider,
    department,
  };
  return (
    <Button
      component={Link}
      to={to('/appointments')}
      state={{ [FOLLOW_UP_STATE_KEY]: request }}
      variant="light"
      size="xs"
      leftSection={<IconCalendarPlus size={14} />}
      data-testid="book-follow-up"
    >
      {t('followUp.book')}
    </Button>
  );
}
