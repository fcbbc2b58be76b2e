/** Archive a record with a reason (never deleted). */
import { ZArchiveBody } from '@greensen/shared/contracts/patients';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArchive } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useArchivePatient } from '../api/archive-patient';

export function ArchivePatientModal({
  patient,
  opened,
  onClose,
}: {
  patient: { id: string; full_name: string };
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const form = useForm<{ reason: string }>({ initialValues: { reason: '' } });
  const applyServerErrors = useServerFieldErrors(form);
  const archive = useArchivePatient(patient.id);

  async function submit() {
    const body = validateWith(ZArchiveBody, form.getValues(), form);
    if (!body) return;
    try {
      await archive.mutateAsync(body.reason);
      toast({ kind: 'success', title: t('archive.done') });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      if (!message && isApiError(error)) form.setFieldError('reason', error.message);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('archive.title')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Alert color="orange">{t('archive.explain', { name: patient.full_name })}</Alert>
          <Textarea
            label={t('archive.reason')}
            required
            withAsterisk
            autosize
            minRows={2}
            {...form.getInputProps('reason')}
          />
          <Text size="xs" c="dimmed">
            {t('archive.hint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button
              type="submit"
              color="orange"
              loading={archive.isPending}
              leftSection={<IconArchive size={16} />}
            >
              {t('archive.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
