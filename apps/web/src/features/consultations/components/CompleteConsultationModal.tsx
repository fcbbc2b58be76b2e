/**
 * "Terminer la consultation": lists what is still missing (primary diagnosis, outcome, follow-up date) with
 * a way to fix it, or says what completing does — the record locks (addenda only afterwards), the visit
 * moves by outcome, confirmed allergies replace the patient's list — and asks for confirmation.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import {
  type CompletionProblem,
  type ConsultationOutcome,
  OUTCOME_ADMISSION_STATUS,
} from '@greensen/shared/domain/consultations';
import { Alert, Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useLocalizedPath } from '../../../lib/use-localized-path';

export function CompleteConsultationModal({
  opened,
  problems,
  record,
  outcome,
  allergies,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  problems: CompletionProblem[];
  record: TConsultationDetail;
  outcome: ConsultationOutcome | null;
  /** The confirmed allergies that will replace the patient's list, or null when not confirmed. */
  allergies: string[] | null;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setError(null);
    try {
      await onConfirm();
    } catch (err) {
      setError(completionErrorText(err) ?? t('complete.failed'));
    }
  }

  function close() {
    setError(null);
    onClose();
  }

  return (
    <Modal opened={opened} onClose={close} title={t('complete.title')} size="lg">
      <Stack gap="md">
        {problems.length > 0 ? (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle size={18} />}
            title={t('complete.missingTitle')}
            data-testid="completion-missing"
          >
            <List size="sm" spacing={4}>
              {problems.map((problem) => (
                <List.Item key={problem.key}>
                  {t(`complete.missing.${problem.key.replace('consultations.', '')}`)}
                  {problem.field === 'diagnoses' && (
                    <>
                      {' '}
                      <Anchor component={Link} to={to(`/consultations/diagnosis/${record.id}`)} size="sm">
                        {t('complete.addDiagnosis')}
                      </Anchor>
                    </>
                  )}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <IconLock size={18} style={{ flexShrink: 0, marginTop: 2 }} />
              <Text size="sm">{t('complete.locks')}</Text>
            </Group>
            {outcome && (
              <Text size="sm">
                {t('complete.outcome', { outcome: t(`outcome.${outcome}`) })}
                {record.admission &&
                  ` ${t('complete.admissionMove', {
                    status: t(`admissions:status.${OUTCOME_ADMISSION_STATUS[outcome]}`),
                  })}`}
              </Text>
            )}
            {allergies && (
              <Text size="sm">
                {allergies.length > 0
                  ? t('complete.allergies', { list: allergies.join(', ') })
                  : t('complete.noAllergies')}
              </Text>
            )}
          </Stack>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common:actions.back')}
          </Button>
          <Button
            leftSection={<IconCheck size={16} />}
            disabled={problems.length > 0}
            loading={pending}
            onClick={() => void confirm()}
          >
            {t('complete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The message of a failed completion (400 field errors joined, or the detail). */
function completionErrorText(error: unknown): string | null {
  if (!isApiError(error)) return null;
  if (error.status === 400 && error.body && typeof error.body === 'object') {
    return Object.values(error.body)
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .filter((value): value is string => typeof value === 'string')
      .join(' ');
  }
  return error.message;
}
