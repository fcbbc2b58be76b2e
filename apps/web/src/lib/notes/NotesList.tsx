/**
 * A searchable, paginated list of notes (personal or a patient's) with their actions: write, change, pin, delete
 * (the author only). Used by /notes and by the patient record's "Notes" tab.
 */
import type { TNote } from '@greensen/shared/contracts/notes';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPin, IconPinnedOff, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format';
import { LoadError } from '../page-states';
import { toast } from '../toast';
import { useNoteMutations, useNotes } from './api';
import { NoteBody } from './NoteBody';
import { NoteEditorModal } from './NoteEditorModal';

const PAGE_SIZE = 10;

function NoteCard({
  note,
  onEdit,
  onTag,
  patient,
}: {
  note: TNote;
  onEdit: () => void;
  onTag: (tag: string) => void;
  patient: string | null;
}) {
  const { t } = useTranslation('notes');
  const { update, remove } = useNoteMutations(patient);
  return (
    <Card withBorder radius="md" padding="md" data-testid="note-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="wrap">
            {note.pinned && (
              <IconPin size={16} aria-label={t('list.pinned')} color="var(--mantine-color-orange-6)" />
            )}
            <Text fw={600}>{note.title}</Text>
          </Group>
          {note.can.edit && (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={note.pinned ? t('list.unpin') : t('list.pin')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={note.pinned ? t('list.unpin') : t('list.pin')}
                  loading={update.isPending}
                  onClick={() => update.mutate({ id: note.id, pinned: !note.pinned })}
                >
                  {note.pinned ? <IconPinnedOff size={16} /> : <IconPin size={16} />}
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('list.edit')}>
                <ActionIcon variant="subtle" aria-label={t('list.edit')} onClick={onEdit}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('list.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('list.delete')}
                  loading={remove.isPending}
                  onClick={() => {
                    if (!window.confirm(t('list.confirmDelete', { title: note.title }))) return;
                    remove.mutate(note.id, {
                      onSuccess: () => toast({ kind: 'success', title: t('list.deleted') }),
                    });
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        {note.body.trim() && <NoteBody body={note.body} />}
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap={4} wrap="wrap">
            {note.tags.map((tag) => (
              <Badge
                key={tag}
                variant="light"
                size="sm"
                style={{ cursor: 'pointer' }}
                onClick={() => onTag(tag)}
                component="button"
                type="button"
              >
                #{tag}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed">
            {patient ? `${note.author.full_name} · ` : ''}
            {t('list.updated', { date: formatDateTime(note.updated_at) })}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

export function NotesList({ patient, canWrite = true }: { patient: string | null; canWrite?: boolean }) {
  const { t } = useTranslation('notes');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [tag, setTag] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TNote | 'new' | null>(null);
  const query = useNotes(patient, { search: q, tag, page, pageSize: PAGE_SIZE });
  const data = query.data;
  return (
    <Stack gap="sm" data-testid={patient ? 'patient-notes' : 'personal-notes'}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('list.search')}
            aria-label={t('list.search')}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            w={260}
          />
          {tag && (
            <Badge
              variant="filled"
              rightSection="×"
              style={{ cursor: 'pointer' }}
              component="button"
              type="button"
              onClick={() => setTag(null)}
              aria-label={t('list.clearTag', { tag })}
            >
              #{tag}
            </Badge>
          )}
        </Group>
        {canWrite && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('list.new')}
          </Button>
        )}
      </Group>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <Stack gap="sm">
          <Skeleton h={90} />
          <Skeleton h={90} />
        </Stack>
      ) : data.results.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="notes-empty">
          {q || tag ? t('list.noMatch') : patient ? t('list.emptyPatient') : t('list.empty')}
        </Text>
      ) : (
        <>
          {data.results.map((note) => (
            <NoteCard
              key={note.id}
              note={note}
              patient={patient}
              onEdit={() => setEditing(note)}
              onTag={(value) => {
                setTag(value);
                setPage(1);
              }}
            />
          ))}
          {data.count > PAGE_SIZE && (
            <Group justify="center">
              <Pagination total={Math.ceil(data.count / PAGE_SIZE)} value={page} onChange={setPage} />
            </Group>
          )}
        </>
      )}
      {editing && (
        <NoteEditorModal
          key={editing === 'new' ? 'new' : editing.id}
          patient={patient}
          note={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
