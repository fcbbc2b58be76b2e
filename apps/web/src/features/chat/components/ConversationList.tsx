import type { TChatConversation } from '@greensen/shared/contracts/chat';
import { Badge, Group, NavLink, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconHash, IconMessage, IconSearch, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../lib/page-states';
import { useConversations } from '../api/chat';

const KIND_ICONS = { direct: IconMessage, group: IconUsersGroup, department: IconHash } as const;

export function ConversationList({
  selected,
  onSelect,
  search,
  onSearch,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
  search: string;
  onSearch: (value: string) => void;
}) {
  const { t } = useTranslation('chat');
  const query = useConversations(search.trim());
  return (
    <Stack gap="xs" h="100%">
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('list.search')}
        aria-label={t('list.search')}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
      />
      {query.isPending ? (
        <Stack gap="xs">
          <Skeleton h={48} />
          <Skeleton h={48} />
        </Stack>
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.results.length === 0 ? (
        <Text c="dimmed" size="sm">
          {search ? t('list.noMatch') : t('list.empty')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah="70vh">
          <Stack gap={2} data-testid="chat-conversations">
            {query.data.results.map((c: TChatConversation) => {
              const Icon = KIND_ICONS[c.kind];
              return (
                <NavLink
                  key={c.id}
                  active={c.id === selected}
                  onClick={() => onSelect(c.id)}
                  leftSection={<Icon size={16} />}
                  label={
                    <Group gap={6} wrap="nowrap" justify="space-between">
                      <Text size="sm" fw={c.unread_count > 0 ? 700 : 500} truncate>
                        {c.title}
                      </Text>
                      {c.unread_count > 0 && (
                        <Badge size="sm" circle aria-label={t('list.unread', { count: c.unread_count })}>
                          {c.unread_count}
                        </Badge>
                      )}
                    </Group>
                  }
                  description={
                    c.last_message
                      ? `${c.last_message.author} : ${c.last_message.excerpt || t('message.deleted')}`
                      : t(`kind.${c.kind}`)
                  }
                />
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
