/** A consultation's status, and a diagnosis as the lists show it: ICD-10 code and label, or "uncoded". */
import type { ConsultationStatus, DiagnosisCertainty } from '@greensen/shared/domain/consultations';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../theme';

export const CONSULTATION_STATUS_COLORS: Record<ConsultationStatus, string> = {
  in_progress: 'violet',
  completed: 'green',
  cancelled: 'gray',
};

export function ConsultationStatusBadge({
  status,
  size = 'sm',
}: {
  status: ConsultationStatus;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('consultations');
  return (
    <Badge
      color={CONSULTATION_STATUS_COLORS[status] ?? 'gray'}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="consultation-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

export interface DiagnosisLike {
  icd_code: string | null;
  label: string;
  coded: boolean;
  certainty: DiagnosisCertainty;
}

/** `B50.9 Paludisme à P. falciparum` with "suspected" and "uncoded" marks. */
export function DiagnosisText({
  diagnosis,
  size = 'sm',
  lineClamp,
}: {
  diagnosis: DiagnosisLike;
  size?: 'xs' | 'sm' | 'md';
  lineClamp?: number;
}) {
  const { t } = useTranslation('consultations');
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      {diagnosis.coded && diagnosis.icd_code ? (
        <Badge variant="outline" color="blue" size={size} radius="sm" style={{ flexShrink: 0 }}>
          {diagnosis.icd_code}
        </Badge>
      ) : (
        <Tooltip label={t('diagnoses.uncodedHint')} withArrow>
          <Badge variant="outline" color="orange" size={size} radius="sm" style={{ flexShrink: 0 }}>
            {t('diagnoses.uncoded')}
          </Badge>
        </Tooltip>
      )}
      <Text size={size} lineClamp={lineClamp} style={{ minWidth: 0 }}>
        {diagnosis.label}
        {diagnosis.certainty === 'suspected' && (
          <Text span size={size} c="dimmed" fs="italic">
            {' '}
            ({t('certainty.suspected')})
          </Text>
        )}
      </Text>
    </Group>
  );
}
