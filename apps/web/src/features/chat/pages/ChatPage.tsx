/** Messaging (issue 23): the conversation list with unread counts and search, and the open conversation. */
import { Button, Grid, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatKeys } from '../../../lib/chat-unread';
import { translate } from '../../../lib/i18n';
import { PageHeader } from '../../../lib/page-states';
import { queryClient } from '../../../lib/query-client';
import { notificationSocket } from '../../../lib/socket';
import { toast } from '../../../lib/toast';
import { postMessage, useMessageSearch } from '../api/chat';
import { ConversationList } from '../components/ConversationList';
import { ConversationView } from '../components/ConversationView';
import { NewConversationModal } from '../components/NewConversationModal';
import { appOutbox } from '../outbox';

const outbox = appOutbox(postMessage, {
  onSent: () => void queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  onRefused: () => toast({ title: translate('chat:message.refused'), color: 'red' }),
});

function SearchResults({ q, onOpen }: { q: string; onOpen: (id: string) => void }) {
  const { t } = useTranslation('chat');
  const results = useMessageSearch(q);
  if (q.trim().length < 2 || !results.data) return null;
  return (
    <Paper withBorder p="xs" data-testid="chat-search-results">
      <Stack gap={4}>
        <Text size="xs" fw={600}>
          {t('search.title', { count: results.data.count })}
        </Text>
        {results.data.results.map((m) => (
          <Text key={m.id} size="xs" style={{ cursor: 'pointer' }} onClick={() => onOpen(m.conversation)}>
            <b>{m.conversation_title || m.author.full_name}</b> — {m.body}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

export default function ChatPage() {
  const { t } = useTranslation('chat');
  const [selected, setSelected] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [creating, setCreating] = useState(false);
  // Any chat event (a message elsewhere, a receipt) refreshes the list's unread counts and last messages.
  useEffect(
    () =>
      notificationSocket.subscribe((e) => {
        if (e.action.startsWith('chat.'))
          void queryClient.invalidateQueries({ queryKey: [...chatKeys.all, 'list'] });
      }),
    [],
  );
  return (
    <Stack>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('new.title')}
          </Button>
        }
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="xs">
            <ConversationList
              selected={selected}
              onSelect={setSelected}
              search={search}
              onSearch={setSearch}
            />
            <SearchResults q={debounced} onOpen={setSelected} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {selected ? (
            <ConversationView key={selected} id={selected} outbox={outbox} onLeft={() => setSelected(null)} />
          ) : (
            <Text c="dimmed">{t('view.none')}</Text>
          )}
        </Grid.Col>
      </Grid>
      <NewConversationModal opened={creating} onClose={() => setCreating(false)} onCreated={setSelected} />
    </Stack>
  );
}
