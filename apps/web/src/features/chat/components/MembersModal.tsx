import type { TChatConversationDetail } from '@greensen/shared/contracts/chat';
import { ActionIcon, Button, Group, Modal, MultiSelect, Stack, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useAddMembers, useRemoveMember, useStaff } from '../api/chat';

/**
 * A group's members: its creator and the administrators add and remove people; everyone may leave (decision 0042).
 * Every change is a system message of the group.
 */
export function MembersModal({
  conversation,
  me,
  opened,
  onClose,
  onLeft,
}: {
  conversation: TChatConversationDetail;
  me: string | null;
  opened: boolean;
  onClose: () => void;
  onLeft: () => void;
}) {
  const { t } = useTranslation('chat');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const manage = conversation.can.manage_members;
  const staff = useStaff(debounced, opened && manage);
  const [adding, setAdding] = useState<string[]>([]);
  const add = useAddMembers(conversation.id);
  const remove = useRemoveMember(conversation.id);
  const present = new Set(conversation.members.map((m) => m.id));
  const data = (staff.data?.results ?? [])
    .filter((p) => !present.has(p.id))
    .map((p) => ({ value: p.id, label: p.full_name }));
  const error = add.error ?? remove.error;
  return (
    <Modal opened={opened} onClose={onClose} title={t('members.title')}>
      <Stack>
        <Stack gap={4} data-testid="chat-members">
          {conversation.members.map((m) => (
            <Group key={m.id} justify="space-between">
              <Text size="sm">{m.id === me ? t('members.me', { name: m.full_name }) : m.full_name}</Text>
              {manage && m.id !== me && (
                <Tooltip label={t('members.remove')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('members.removeName', { name: m.full_name })}
                    loading={remove.isPending && remove.variables === m.id}
                    onClick={() => remove.mutate(m.id)}
                  >
                    <IconUserMinus size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          ))}
        </Stack>
        {manage && (
          <Group align="flex-end" wrap="nowrap">
            <MultiSelect
              style={{ flex: 1 }}
              label={t('members.add')}
              searchable
              data={data}
              value={adding}
              onChange={setAdding}
              searchValue={search}
              onSearchChange={setSearch}
              nothingFoundMessage={t('new.nobody')}
            />
            <Button
              disabled={adding.length === 0}
              loading={add.isPending}
              onClick={() => add.mutate(adding, { onSuccess: () => setAdding([]) })}
            >
              {t('members.addButton')}
            </Button>
          </Group>
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {isApiError(error) ? error.message : t('members.failed')}
          </Text>
        )}
        {conversation.can.leave && me && (
          <Button
            variant="light"
            color="red"
            loading={remove.isPending && remove.variables === me}
            onClick={() => remove.mutate(me, { onSuccess: onLeft })}
          >
            {t('members.leave')}
          </Button>
        )}
      </Stack>
    </Modal>
  );
}
