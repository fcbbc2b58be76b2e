/**
 * One set of vitals for the patient of a care file, with the live NEWS2 of what is typed (the round's fields and
 * rules, for one patient). After saving, the score and the doctor notified (past the threshold) are shown.
 */
import type { TCarePlan, TVitalsRecord } from '@greensen/shared/contracts/care';
import { Alert, Badge, Group, Stack, Text } from '@mantine/core';
import { IconBellRinging, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { News2Badge } from '../../../lib/clinical/components/care/News2Badge';
import { serverErrorsFromBody } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { useRecordVitals } from '../api/care-file';
import { EMPTY_ROUND_ROW, liveNews2, readRow } from './round-values';
import { VitalsEntryFields } from './VitalsEntryFields';

export function VitalsModal({
  plan,
  news2Applies,
  execution = null,
  onClose,
}: {
  plan: TCarePlan;
  news2Applies: boolean;
  /** The vitals task this set answers (done by saving it, issue 37). */
  execution?: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const record = useRecordVitals(plan.id);
  const [row, setRow] = useState(EMPTY_ROUND_ROW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saved, setSaved] = useState<TVitalsRecord | null>(null);
  const read = readRow(row);
  const news2 = liveNews2(read, { applies: news2Applies, hypercapnic: plan.hypercapnic });

  const submit = () => {
    if (record.isPending) return;
    if (saved) {
      onClose();
      return;
    }
    if (!read.touched || Object.keys(read.errors).length > 0) return;
    setGeneral(null);
    record.mutate(
      { vitals: { ...read.values, confused: read.values.confused || null }, execution },
      {
        onSuccess: setSaved,
        onError: (error) => {
          if (isApiError(error) && error.status === 400) {
            const server = serverErrorsFromBody(error.body);
            const fields: Record<string, string> = {};
            for (const [key, message] of Object.entries(server.fields))
              fields[key.replace(/^vitals\./, '')] = message;
            setErrors(fields);
            setGeneral(server.general);
          } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404))
            setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
        },
      },
    );
  };

  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      size="xl"
      title={t('vitals.modalTitle', { patient: plan.patient.full_name })}
    >
      <Stack gap="md" data-testid="vitals-form">
        <Group justify="flex-end" mih={30}>
          {news2 && (
            <News2Badge score={news2.score} risk={news2.risk} complete={news2.complete} testId="live-news2" />
          )}
        </Group>
        {news2 && news2.escalation !== 'none' && (
          <Alert color={news2.colour} title={t(`news2.escalation.${news2.escalation}`)}>
            {t('news2.doctorNotified')}
          </Alert>
        )}
        <VitalsEntryFields
          row={row}
          read={read}
          previous={null}
          serverErrors={errors}
          who={plan.patient.full_name}
          onChange={(patch) => setRow((r) => ({ ...r, ...patch }))}
        />
        {saved && (
          <Group gap="xs" data-testid="vitals-saved">
            <Text fw={600}>{t('vitals.saved')}</Text>
            {saved.news2 && (
              <News2Badge score={saved.news2.score} risk={saved.news2.risk} complete={saved.news2.complete} />
            )}
            {saved.escalated_to.length > 0 && (
              <Badge color="red" leftSection={<IconBellRinging size={12} />}>
                {t('round.escalated', { names: saved.escalated_to.map((p) => p.full_name).join(', ') })}
              </Badge>
            )}
          </Group>
        )}
        <FormFooter
          general={general}
          onCancel={saved ? undefined : onClose}
          submitLabel={saved ? t('actions.close') : t('vitals.save')}
          loading={record.isPending}
          leftSection={saved ? undefined : <IconDeviceFloppy size={18} />}
        />
      </Stack>
    </ModalForm>
  );
}
