import { Button, Modal, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useCreateConversation, useStaff } from '../api/chat';

/** Starts a direct conversation with one colleague, or a named group (the staff picker lists the hospital's staff). */
export function NewConversationModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation('chat');
  const [kind, setKind] = useState<'direct' | 'group'>('direct');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const staff = useStaff(debounced, opened);
  const [person, setPerson] = useState<string | null>(null);
  const [members, setMembers] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const create = useCreateConversation();
  const data = (staff.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }));
  const ready = kind === 'direct' ? !!person : members.length > 0 && title.trim().length > 0;

  const submit = () => {
    const body =
      kind === 'direct'
        ? { kind: 'direct' as const, user: person! }
        : { kind: 'group' as const, title: title.trim(), members };
    create.mutate(body, {
      onSuccess: (c) => {
        onCreated(c.id);
        onClose();
      },
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('new.title')}>
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as 'direct' | 'group')}
          data={[
            { value: 'direct', label: t('new.direct') },
            { value: 'group', label: t('new.group') },
          ]}
        />
        {kind === 'group' && (
          <TextInput
            label={t('new.groupName')}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={120}
          />
        )}
        {kind === 'direct' ? (
          <Select
            label={t('new.person')}
            searchable
            data={data}
            value={person}
            onChange={setPerson}
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('new.nobody')}
            filter={({ options }) => options}
          />
        ) : (
          <MultiSelect
            label={t('new.members')}
            searchable
            data={data}
            value={members}
            onChange={setMembers}
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('new.nobody')}
          />
        )}
        {create.isError && (
          <Text c="red" size="sm" role="alert">
            {isApiError(create.error) ? create.error.message : t('new.failed')}
          </Text>
        )}
        <Button onClick={submit} disabled={!ready} loading={create.isPending}>
          {t('new.start')}
        </Button>
      </Stack>
    </Modal>
  );
}
