/**
 * The consultation's active diagnoses, primary first: code and label (or "uncoded"), rank, certainty,
 * notes, who and when. While editable: make one primary (the current primary becomes secondary), switch
 * confirmed/suspected, remove (kept on the server, never deleted).
 */
import type { TDiagnosis } from '@greensen/shared/contracts/consultations';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconStar, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { DiagnosisText } from '../../../lib/clinical/components/ConsultationBadges';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useRemoveDiagnosis, useUpdateDiagnosis } from '../api/diagnoses';

export function DiagnosesList({
  consultationId,
  diagnoses,
  editable,
}: {
  consultationId: string;
  diagnoses: TDiagnosis[];
  editable: boolean;
}) {
  const { t } = useTranslation('consultations');
  const update = useUpdateDiagnosis(consultationId);
  const remove = useRemoveDiagnosis(consultationId);

  const failed = (error: unknown) => {
    if (isApiError(error) && error.status !== 403 && error.status !== 404)
      toast({ kind: 'error', title: t('diagnoses.changeFailed'), description: error.message });
  };

  const confirmRemove = (d: TDiagnosis) =>
    modals.openConfirmModal({
      title: t('diagnoses.removeTitle'),
      children: <Text size="sm">{t('diagnoses.removeConfirm', { label: d.label })}</Text>,
      labels: { confirm: t('diagnoses.remove'), cancel: t('common:actions.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        remove.mutateAsync(d.id).catch(failed);
      },
    });

  if (diagnoses.length === 0) {
    return (
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed">{t('diagnoses.none')}</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="xs" data-testid="diagnoses-list">
      {diagnoses.map((d) => (
        <Paper key={d.id} withBorder radius="md" p="sm" data-testid="diagnosis-row">
          <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
            <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
              <DiagnosisText diagnosis={d} />
              <Group gap={6}>
                <Badge variant={d.rank === 'primary' ? 'filled' : 'light'} size="sm">
                  {t(`rank.${d.rank}`)}
                </Badge>
                <Badge variant="light" color={d.certainty === 'suspected' ? 'yellow' : 'green'} size="sm">
                  {t(`certainty.${d.certainty}`)}
                </Badge>
                <Text size="xs" c="dimmed">
                  {d.created_by.full_name} · {formatDateTime(d.created_at)}
                </Text>
              </Group>
              {d.notes && (
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                  {d.notes}
                </Text>
              )}
            </Stack>
            {editable && (
              <Group gap={4} wrap="nowrap">
                {d.rank !== 'primary' && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    leftSection={<IconStar size={14} />}
                    loading={update.isPending && update.variables?.id === d.id}
                    onClick={() => update.mutateAsync({ id: d.id, rank: 'primary' }).catch(failed)}
                  >
                    {t('diagnoses.makePrimary')}
                  </Button>
                )}
                <Button
                  size="compact-sm"
                  variant="default"
                  onClick={() =>
                    update
                      .mutateAsync({
                        id: d.id,
                        certainty: d.certainty === 'confirmed' ? 'suspected' : 'confirmed',
                      })
                      .catch(failed)
                  }
                >
                  {d.certainty === 'confirmed' ? t('diagnoses.markSuspected') : t('diagnoses.markConfirmed')}
                </Button>
                <Tooltip label={t('diagnoses.remove')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`${t('diagnoses.remove')} ${d.icd_code ?? d.label}`}
                    onClick={() => confirmRemove(d)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
