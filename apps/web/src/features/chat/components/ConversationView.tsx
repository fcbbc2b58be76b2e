import { CHAT_BODY_MAX, CHAT_EDIT_WINDOW_MS, type TChatMessage } from '@greensen/shared/contracts/chat';
import type { TSocketEnvelope } from '@greensen/shared/contracts/notifications';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconPaperclip,
  IconPencil,
  IconSend,
  IconTrash,
  IconUser,
  IconUsers,
  IconX,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { notificationSocket } from '../../../lib/socket';
import { useUserStore } from '../../../stores/user';
import {
  keys,
  useConversation,
  useDeleteMessage,
  useEditMessage,
  useMarkRead,
  useMessages,
  useSendAttachment,
} from '../api/chat';
import { type Outbox, usePending } from '../outbox';
import { MembersModal } from './MembersModal';
import { AttachmentChip, SystemLine } from './MessageParts';

function PatientCard({ patient }: { patient: NonNullable<TChatMessage['patient']> }) {
  const { t } = useTranslation('chat');
  if (patient.restricted) {
    return (
      <Badge
        variant="outline"
        color="gray"
        leftSection={<IconUser size={12} />}
        data-testid="chat-patient-restricted"
      >
        {t('patient.restricted')}
      </Badge>
    );
  }
  return (
    <Card withBorder padding="xs" data-testid="chat-patient-card">
      <Group gap="xs">
        <IconUser size={16} />
        <Anchor component={Link} to={`/patients/${patient.id}`} size="sm" fw={600}>
          {patient.full_name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {patient.record_number}
        </Text>
      </Group>
    </Card>
  );
}

function MessageItem({
  message,
  mine,
  onReply,
  onEdit,
  onDelete,
}: {
  message: TChatMessage;
  mine: boolean;
  onReply: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('chat');
  const deleted = message.deleted_at !== null;
  const editable = mine && !deleted && Date.now() - Date.parse(message.created_at) < CHAT_EDIT_WINDOW_MS;
  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
      style={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '80%' }}
      data-testid="chat-message"
    >
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Text size="xs" fw={600}>
            {message.author.full_name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(message.created_at)}
            {message.edited_at && !deleted ? ` · ${t('message.edited')}` : ''}
          </Text>
        </Group>
        {message.reply_to && (
          <Text
            size="xs"
            c="dimmed"
            style={{ borderLeft: '2px solid var(--mantine-color-gray-4)', paddingLeft: 6 }}
          >
            {message.reply_to.author} :{' '}
            {message.reply_to.deleted ? t('message.deleted') : message.reply_to.excerpt}
          </Text>
        )}
        {deleted ? (
          <Text size="sm" fs="italic" c="dimmed">
            {t('message.deleted')}
          </Text>
        ) : (
          // Plain text: React escapes it; never HTML.
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.body}
          </Text>
        )}
        {message.patient && <PatientCard patient={message.patient} />}
        <AttachmentChip message={message} />
        {!deleted && (
          <Group gap={4} justify="flex-end">
            <Tooltip label={t('actions.reply')}>
              <ActionIcon variant="subtle" size="sm" aria-label={t('actions.reply')} onClick={onReply}>
                <IconArrowBackUp size={14} />
              </ActionIcon>
            </Tooltip>
            {editable && (
              <Tooltip label={t('actions.edit')}>
                <ActionIcon variant="subtle" size="sm" aria-label={t('actions.edit')} onClick={onEdit}>
                  <IconPencil size={14} />
                </ActionIcon>
              </Tooltip>
            )}
            {mine && (
              <Tooltip label={t('actions.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="sm"
                  aria-label={t('actions.delete')}
                  onClick={onDelete}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** One conversation: its messages (newest at the bottom), the composer, replies, edits, the patient reference. */
export function ConversationView({ id, outbox, onLeft }: { id: string; outbox: Outbox; onLeft: () => void }) {
  const { t } = useTranslation('chat');
  const me = useUserStore((s) => s.user?.id ?? null);
  const queryClient = useQueryClient();
  const detail = useConversation(id);
  const messages = useMessages(id);
  const pending = usePending(outbox, id);
  const markRead = useMarkRead(id);
  const edit = useEditMessage();
  const remove = useDeleteMessage();
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<TChatMessage | null>(null);
  const [editing, setEditing] = useState<TChatMessage | null>(null);
  const [patient, setPatient] = useState<string>('');
  const [withPatient, setWithPatient] = useState(false);
  const [membersOpen, setMembersOpen] = useState(false);
  const attach = useSendAttachment(id);

  const list = useMemo(() => (messages.data?.pages ?? []).flatMap((p) => p.results), [messages.data]);
  const newest = list[0];

  // Live: new and changed messages and receipts of this conversation reload it.
  useEffect(
    () =>
      notificationSocket.subscribe((e: TSocketEnvelope) => {
        if (!e.action.startsWith('chat.')) return;
        const conversation = 'conversation' in e.message ? e.message.conversation : null;
        if (conversation === id) {
          void queryClient.invalidateQueries({ queryKey: keys.messages(id) });
          void queryClient.invalidateQueries({ queryKey: keys.detail(id) });
        }
      }),
    [id, queryClient],
  );

  // What is shown is read.
  const { mutate: read } = markRead;
  useEffect(() => {
    if (newest && newest.author.id !== me) read(newest.id);
  }, [newest, me, read]);

  const submit = () => {
    const body = text.trim();
    if (!body) return;
    if (editing) {
      edit.mutate({ id: editing.id, body }, { onSuccess: () => setEditing(null) });
    } else {
      outbox.enqueue({
        id: crypto.randomUUID(),
        conversation: id,
        body,
        reply_to: replyTo?.id ?? null,
        patient: withPatient && patient ? patient : null,
      });
      setReplyTo(null);
      setPatient('');
      setWithPatient(false);
    }
    setText('');
  };

  const sendFile = (file: File | null) => {
    if (!file) return;
    attach.mutate({ file, body: text.trim() }, { onSuccess: () => setText('') });
  };

  // Removed from the group (or left it in another tab): the conversation is no longer the reader's.
  if (detail.isError && isApiError(detail.error) && detail.error.status === 404)
    return (
      <Text c="dimmed" data-testid="chat-gone">
        {t('members.gone')}
      </Text>
    );
  if (detail.isError) return <LoadError error={detail.error} onRetry={() => void detail.refetch()} />;

  const readers = (detail.data?.receipts ?? []).filter(
    (r) => r.user.id !== me && r.last_read_message === newest?.id,
  );

  return (
    <Stack gap="sm" data-testid="chat-conversation">
      <Group justify="space-between">
        <Title order={3}>{detail.data?.title ?? <Skeleton h={24} w={200} />}</Title>
        {detail.data?.kind === 'group' && (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconUsers size={14} />}
            onClick={() => setMembersOpen(true)}
          >
            {t('members.button')}
          </Button>
        )}
      </Group>
      {detail.data?.kind === 'group' && (
        <MembersModal
          conversation={detail.data}
          me={me}
          opened={membersOpen}
          onClose={() => setMembersOpen(false)}
          onLeft={onLeft}
        />
      )}
      {detail.data && (
        <Text size="xs" c="dimmed">
          {detail.data.members.map((m) => m.full_name).join(', ')}
        </Text>
      )}
      {messages.hasNextPage && (
        <Button
          variant="subtle"
          size="xs"
          onClick={() => void messages.fetchNextPage()}
          loading={messages.isFetchingNextPage}
        >
          {t('view.older')}
        </Button>
      )}
      {messages.isPending ? (
        <Stack>
          <Skeleton h={60} />
          <Skeleton h={60} />
        </Stack>
      ) : messages.isError ? (
        <LoadError error={messages.error} onRetry={() => void messages.refetch()} />
      ) : (
        <Stack gap="xs" style={{ display: 'flex', flexDirection: 'column' }}>
          {list.length === 0 && pending.length === 0 && (
            <Text c="dimmed" size="sm">
              {t('view.empty')}
            </Text>
          )}
          {[...list].reverse().map((m) =>
            m.system ? (
              <SystemLine key={m.id} message={m} me={me} />
            ) : (
              <MessageItem
                key={m.id}
                message={m}
                mine={m.author.id === me}
                onReply={() => setReplyTo(m)}
                onEdit={() => {
                  setEditing(m);
                  setText(m.body);
                }}
                onDelete={() => remove.mutate(m.id)}
              />
            ),
          )}
          {pending
            .filter((p) => !list.some((m) => m.id === p.id))
            .map((p) => (
              <Paper
                key={p.id}
                withBorder
                p="xs"
                radius="md"
                style={{ alignSelf: 'flex-end', maxWidth: '80%', opacity: 0.7 }}
                data-testid="chat-pending"
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {p.body}
                </Text>
                <Badge size="xs" color="gray" variant="light">
                  {t('message.pending')}
                </Badge>
              </Paper>
            ))}
          {readers.length > 0 && (
            <Text size="xs" c="dimmed" ta="right" data-testid="chat-receipts">
              {t('view.readBy', { names: readers.map((r) => r.user.full_name).join(', ') })}
            </Text>
          )}
        </Stack>
      )}
      {(replyTo || editing) && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {editing ? t('view.editing') : t('view.replyingTo', { name: replyTo!.author.full_name })}
          </Text>
          <ActionIcon
            size="xs"
            variant="subtle"
            aria-label={t('actions.cancel')}
            onClick={() => {
              setReplyTo(null);
              if (editing) setText('');
              setEditing(null);
            }}
          >
            <IconX size={12} />
          </ActionIcon>
        </Group>
      )}
      {withPatient && !editing && (
        <PatientPicker
          label={t('view.patient')}
          nothingFound={t('view.noPatient')}
          value={patient}
          onChange={setPatient}
        />
      )}
      {attach.isError && (
        <Text c="red" size="sm" role="alert">
          {isApiError(attach.error) ? attach.error.message : t('attachment.failed')}
        </Text>
      )}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Textarea
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={6}
          maxLength={CHAT_BODY_MAX}
          placeholder={t('view.placeholder')}
          aria-label={t('view.placeholder')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {!editing && (
          <FileButton onChange={sendFile} accept="image/png,image/jpeg,image/webp,image/heic,application/pdf">
            {(props) => (
              <Tooltip label={t('view.attachFile')}>
                <ActionIcon
                  {...props}
                  variant="default"
                  size="lg"
                  aria-label={t('view.attachFile')}
                  loading={attach.isPending}
                >
                  <IconPaperclip size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </FileButton>
        )}
        {!editing && (
          <Tooltip label={t('view.attachPatient')}>
            <ActionIcon
              variant={withPatient ? 'filled' : 'default'}
              size="lg"
              aria-label={t('view.attachPatient')}
              onClick={() => setWithPatient((v) => !v)}
            >
              <IconUser size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Button leftSection={<IconSend size={16} />} onClick={submit} disabled={!text.trim()}>
          {editing ? t('actions.save') : t('actions.send')}
        </Button>
      </Group>
    </Stack>
  );
}
