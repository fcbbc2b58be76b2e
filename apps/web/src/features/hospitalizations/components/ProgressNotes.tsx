/**
 * A stay's progress notes (Notes d'évolution), newest first: each dated and signed by its author, with its
 * addenda under it. Doctors write a note while the stay is open; a signed note is never changed, only completed
 * by an addendum — still possible once the stay is closed.
 */
import { type TProgressNote, ZProgressNoteCreate } from '@greensen/shared/contracts/hospitalizations';
import { Button, Group, Pagination, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCornerDownRight, IconNotes, IconPlus, IconSignature } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormFailure } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useProgressNotes, useWriteNote } from '../api/notes';

const PAGE_SIZE = 20;

/** The form of a new note, or of an addendum to `addendumOf`. */
function NoteForm({
  stay,
  addendumOf,
  onDone,
}: {
  stay: string;
  addendumOf?: TProgressNote;
  onDone?: () => void;
}) {
  const { t } = useTranslation('hospitalizations');
  const write = useWriteNote(stay);
  const form = useForm<{ text: string }>({ initialValues: { text: '' } });
  const { general, clear, fail } = useFormFailure(form, t('forms.failed'));

  async function submit() {
    clear();
    const body = validateWith(
      ZProgressNoteCreate,
      { text: form.getValues().text, addendum_of: addendumOf?.id ?? null },
      form,
    );
    if (!body) return;
    try {
      await write.mutateAsync(body);
      form.reset();
      toast({ kind: 'success', title: t(addendumOf ? 'notes.addendumSigned' : 'notes.signed') });
      onDone?.();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={addendumOf ? t('notes.addendumLabel') : t('notes.newLabel')}
          description={addendumOf ? t('notes.addendumHint') : t('notes.newHint')}
          autosize
          minRows={addendumOf ? 2 : 3}
          maxRows={12}
          data-autofocus
          {...form.getInputProps('text')}
        />
        {general && (
          <Text size="sm" c="red" role="alert">
            {general}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          {onDone && (
            <Button variant="default" size="xs" onClick={onDone}>
              {t('common:actions.cancel')}
            </Button>
          )}
          <Button type="submit" size="xs" loading={write.isPending} leftSection={<IconSignature size={14} />}>
            {addendumOf ? t('notes.signAddendum') : t('notes.sign')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NoteItem({ note, stay, canAddendum }: { note: TProgressNote; stay: string; canAddendum: boolean }) {
  const { t } = useTranslation('hospitalizations');
  const [adding, setAdding] = useState(false);
  return (
    <Paper withBorder radius="sm" p="sm" data-testid="progress-note">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {formatDateTime(note.signed_at)} · {note.author.full_name}
          </Text>
          <Text size="xs" c="dimmed">
            {t('notes.signedBy', { name: note.author.full_name })}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {note.text}
        </Text>
        {note.addenda.map((a) => (
          <Paper
            key={a.id}
            radius="sm"
            p="xs"
            ml="md"
            bg="var(--mantine-color-default-hover)"
            data-testid="note-addendum"
          >
            <Group gap={4} wrap="nowrap" align="flex-start">
              <IconCornerDownRight size={14} style={{ flexShrink: 0, marginTop: 3 }} />
              <div>
                <Text size="xs" fw={600}>
                  {t('notes.addendumOf', { date: formatDateTime(a.signed_at), name: a.author.full_name })}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {a.text}
                </Text>
              </div>
            </Group>
          </Paper>
        ))}
        {canAddendum &&
          (adding ? (
            <NoteForm stay={stay} addendumOf={note} onDone={() => setAdding(false)} />
          ) : (
            <Group justify="flex-end">
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconPlus size={12} />}
                onClick={() => setAdding(true)}
                aria-label={t('notes.addAddendumTo', { date: formatDateTime(note.signed_at) })}
              >
                {t('notes.addAddendum')}
              </Button>
            </Group>
          ))}
      </Stack>
    </Paper>
  );
}

export function ProgressNotes({
  stay,
  canWrite,
  canAddendum,
}: {
  stay: string;
  /** A new note (the stay is open and the user may write). */
  canWrite: boolean;
  /** Addenda (also once the stay is closed). */
  canAddendum: boolean;
}) {
  const { t } = useTranslation('hospitalizations');
  const [page, setPage] = useState(1);
  const notes = useProgressNotes(stay, page);
  const pages = Math.max(1, Math.ceil((notes.data?.count ?? 0) / PAGE_SIZE));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('notes.title')}>
      <Stack gap="sm">
        <Group gap="xs">
          <IconNotes size={18} />
          <Title order={4}>{t('notes.title')}</Title>
        </Group>
        {canWrite && <NoteForm stay={stay} />}
        {notes.isError ? (
          <LoadError error={notes.error} onRetry={() => void notes.refetch()} />
        ) : notes.isPending ? (
          <Skeleton h={80} />
        ) : notes.data.results.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('notes.none')}
          </Text>
        ) : (
          <Stack gap="xs">
            {notes.data.results.map((note) => (
              <NoteItem key={note.id} note={note} stay={stay} canAddendum={canAddendum} />
            ))}
            {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
