/** Writes or changes a note: title, body (safe Markdown, with dictation and a preview), tags, pinned. */
import type { TNote } from '@greensen/shared/contracts/notes';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '@greensen/shared/contracts/notes';
import {
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appendDictation, DictationButton } from '../dictation/DictationButton';
import { useFormFailure } from '../field-errors';
import { FormFooter, ModalForm } from '../modal-form';
import { toast } from '../toast';
import { useNoteMutations } from './api';
import { NoteBody } from './NoteBody';

interface Values extends Record<string, unknown> {
  title: string;
  body: string;
  tags: string[];
  pinned: boolean;
}

export function NoteEditorModal({
  patient,
  note,
  opened,
  onClose,
}: {
  /** The patient of a patient note; null for a personal one. */
  patient: string | null;
  /** The note to change; null for a new one. */
  note: TNote | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('notes');
  const { create, update } = useNoteMutations(patient);
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const form = useForm<Values>({
    initialValues: {
      title: note?.title ?? '',
      body: note?.body ?? '',
      tags: note?.tags ?? [],
      pinned: note?.pinned ?? false,
    },
    validate: {
      title: (v) => (v.trim() ? null : t('editor.titleRequired')),
    },
  });
  const failure = useFormFailure(form, t('editor.failed'));
  const saving = create.isPending || update.isPending;
  const submit = form.onSubmit(async (values) => {
    failure.clear();
    try {
      if (note) await update.mutateAsync({ id: note.id, ...values });
      else await create.mutateAsync(values);
      toast({ kind: 'success', title: note ? t('editor.saved') : t('editor.created') });
      onClose();
    } catch (error) {
      failure.fail(error);
    }
  });
  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      onSubmit={() => submit()}
      title={note ? t('editor.editTitle') : patient ? t('editor.newPatientTitle') : t('editor.newTitle')}
      size="lg"
    >
      <Stack gap="sm">
        <TextInput
          label={t('editor.title')}
          required
          maxLength={NOTE_TITLE_MAX}
          data-autofocus
          {...form.getInputProps('title')}
        />
        <Group justify="space-between" align="flex-end">
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as 'write' | 'preview')}
            data={[
              { value: 'write', label: t('editor.write') },
              { value: 'preview', label: t('editor.preview') },
            ]}
          />
          <DictationButton
            label={t('editor.body')}
            onInsert={(text) => form.setFieldValue('body', appendDictation(form.getValues().body, text))}
          />
        </Group>
        {mode === 'write' ? (
          <Textarea
            label={t('editor.body')}
            description={t('editor.bodyHint')}
            autosize
            minRows={6}
            maxRows={16}
            maxLength={NOTE_BODY_MAX}
            {...form.getInputProps('body')}
          />
        ) : (
          <Paper withBorder p="sm" mih={120} data-testid="note-preview">
            {form.getValues().body.trim() ? (
              <NoteBody body={form.getValues().body} />
            ) : (
              <Text c="dimmed" size="sm">
                {t('editor.emptyPreview')}
              </Text>
            )}
          </Paper>
        )}
        <TagsInput
          label={t('editor.tags')}
          description={t('editor.tagsHint')}
          maxTags={10}
          clearable
          {...form.getInputProps('tags')}
        />
        <Switch label={t('editor.pinned')} {...form.getInputProps('pinned', { type: 'checkbox' })} />
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={note ? t('editor.save') : t('editor.create')}
          loading={saving}
        />
      </Stack>
    </ModalForm>
  );
}
