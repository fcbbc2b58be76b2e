/** The consultation's active diagnoses (primary first) in the form, with the way to the diagnoses page. */
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConsultation } from '../../../lib/clinical/api/get-consultation';
import { DiagnosisText } from '../../../lib/clinical/components/ConsultationBadges';
import { useLocalizedPath } from '../../../lib/use-localized-path';

export function DiagnosesSummary({
  consultationId,
  editable,
}: {
  consultationId: string;
  editable: boolean;
}) {
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const record = useConsultation(consultationId).data;
  const diagnoses = record?.diagnoses ?? [];
  const hasPrimary = diagnoses.some((d) => d.rank === 'primary');
  return (
    <Stack gap="xs" data-testid="diagnoses-summary">
      {diagnoses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('diagnoses.none')}
        </Text>
      ) : (
        diagnoses.map((d) => (
          <Group key={d.id} gap="xs" wrap="nowrap" justify="space-between">
            <DiagnosisText diagnosis={d} />
            <Badge variant={d.rank === 'primary' ? 'filled' : 'light'} size="sm" style={{ flexShrink: 0 }}>
              {t(`rank.${d.rank}`)}
            </Badge>
          </Group>
        ))
      )}
      {editable && !hasPrimary && diagnoses.length > 0 && (
        <Text size="sm" c="orange">
          {t('diagnoses.noPrimary')}
        </Text>
      )}
      <Group>
        {editable ? (
          <Button
            component={Link}
            to={to(`/consultations/diagnosis/${consultationId}`)}
            variant="light"
            leftSection={<IconListDetails size={16} />}
          >
            {t('diagnoses.manage')}
          </Button>
        ) : (
          <Anchor component={Link} to={to(`/consultations/diagnosis/${consultationId}`)} size="sm">
            {t('diagnoses.open')}
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
