/**
 * Dated addenda of a completed consultation (the record itself is locked), and the form to add one for
 * those responsible for it (`may_add_addendum`).
 */

import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { ZAddendumCreate } from '@greensen/shared/contracts/consultations';
import { Button, Group, Paper, Stack, Text, Textarea, Timeline, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconNotes, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useAddAddendum } from '../api/consultation-actions';

export function AddendaPanel({ record }: { record: TConsultationDetail }) {
  const { t } = useTranslation('consultations');
  const add = useAddAddendum(record.id);
  const form = useForm<{ text: string }>({ initialValues: { text: '' } });
  const applyServerErrors = useServerFieldErrors(form);
  const [general, setGeneral] = useState<string | null>(null);

  async function submit() {
    setGeneral(null);
    const body = validateWith(ZAddendumCreate, form.getValues(), form);
    if (!body) return;
    try {
      await add.mutateAsync(body.text);
      form.reset();
      toast({ kind: 'success', title: t('addenda.added') });
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('addenda.failed')));
    }
  }

  if (record.addenda.length === 0 && !record.may_add_addendum) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('addenda.title')}>
      <Stack gap="sm">
        <Group gap="xs">
          <IconNotes size={18} />
          <Title order={4}>{t('addenda.title')}</Title>
        </Group>
        {record.addenda.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('addenda.none')}
          </Text>
        ) : (
          <Timeline bulletSize={14} lineWidth={2} active={record.addenda.length}>
            {record.addenda.map((a) => (
              <Timeline.Item
                key={a.id}
                title={
                  <Text size="sm" fw={600}>
                    {formatDateTime(a.created_at)} · {a.author.full_name}
                  </Text>
                }
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="addendum-text">
                  {a.text}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        {record.may_add_addendum && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Stack gap="xs">
              <Textarea
                label={t('addenda.new')}
                description={t('addenda.hint')}
                autosize
                minRows={2}
                maxRows={8}
                {...form.getInputProps('text')}
              />
              {general && (
                <Text size="sm" c="red" role="alert">
                  {general}
                </Text>
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={add.isPending} leftSection={<IconPlus size={16} />}>
                  {t('addenda.add')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
