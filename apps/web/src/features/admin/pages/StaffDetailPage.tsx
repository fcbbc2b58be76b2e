/**
 * /admin/staff/:id (specification §2): a person of the hospital — their memberships here (add one, end one),
 * deactivate or reactivate them (every session ends at once), clear their PIN, mail a password reset. The
 * server refuses what would leave the hospital without an administrator; the page shows its reason.
 */
import type { TStaffDetail, TStaffMembership } from '@greensen/shared/contracts/staff';
import type { RoleCode } from '@greensen/shared/domain/roles';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconKey,
  IconLockOpen,
  IconMail,
  IconPlus,
  IconUserCheck,
  IconUserOff,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import {
  type StaffAction,
  useAddMembership,
  useRemoveMembership,
  useSendPasswordReset,
  useStaffAction,
  useStaffMember,
} from '../api/staff-member';
import { StaffStatusBadge } from '../components/StaffStatusBadge';
import { roleOptions, roleText, useActiveDepartmentOptions } from '../components/staff-roles';

/** The server's reason for a refusal (409 last administrator…), else the generic failure. */
function failureText(error: unknown, fallback: string) {
  return isApiError(error) ? error.message : fallback;
}

function AddMembership({ person }: { person: TStaffDetail }) {
  const { t } = useTranslation('admin');
  const lang = uiLanguage();
  const departmentOptions = useActiveDepartmentOptions();
  const add = useAddMembership(person.id);
  const [role, setRole] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    if (!role) return;
    setError(null);
    try {
      await add.mutateAsync({ role_code: role as RoleCode, department });
      toast({ kind: 'success', title: t('staff.detail.roleAdded') });
      setRole(null);
      setDepartment(null);
    } catch (caught) {
      setError(failureText(caught, t('staff.failed')));
    }
  }

  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Select
          label={t('staff.fields.role')}
          data={roleOptions(lang)}
          value={role}
          onChange={setRole}
          searchable
        />
        <Select
          label={t('staff.fields.department')}
          placeholder={t('staff.fields.wholeHospital')}
          data={departmentOptions}
          value={department}
          onChange={setDepartment}
          searchable
          clearable
        />
        <Button
          mt={{ base: 0, sm: 24 }}
          leftSection={<IconPlus size={16} />}
          disabled={!role}
          loading={add.isPending}
          onClick={() => void submit()}
        >
          {t('staff.detail.addRole')}
        </Button>
      </SimpleGrid>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

function Memberships({ person }: { person: TStaffDetail }) {
  const { t } = useTranslation('admin');
  const lang = uiLanguage();
  const remove = useRemoveMembership(person.id);

  async function end(m: TStaffMembership) {
    try {
      await remove.mutateAsync(m.id);
      toast({ kind: 'success', title: t('staff.detail.roleRemoved') });
    } catch (error) {
      toast({ kind: 'error', title: t('staff.failed'), description: failureText(error, '') });
    }
  }

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={4}>{t('staff.detail.memberships')}</Title>
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('staff.fields.role')}</Table.Th>
                <Table.Th>{t('staff.detail.since')}</Table.Th>
                <Table.Th>{t('staff.columns.status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {person.memberships.map((m, index) => (
                <Table.Tr key={m.id} data-testid="membership-row">
                  <Table.Td>
                    <Text size="sm" td={m.is_active ? undefined : 'line-through'}>
                      {roleText(m, lang)}
                    </Text>
                    {index === person.memberships.findIndex((x) => x.is_active) && (
                      <Text size="xs" c="dimmed">
                        {t('staff.detail.drivesDashboard')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(m.created_at)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={m.is_active ? 'green' : 'gray'} variant="light" size="sm">
                      {t(m.is_active ? 'staff.status.active' : 'staff.status.inactive')}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    {m.is_active && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconX size={12} />}
                        loading={remove.isPending && remove.variables === m.id}
                        onClick={() => void end(m)}
                        aria-label={t('staff.detail.removeRole', { role: roleText(m, lang) })}
                      >
                        {t('staff.detail.remove')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <AddMembership person={person} />
      </Stack>
    </Paper>
  );
}

function AccountActions({ person }: { person: TStaffDetail }) {
  const { t } = useTranslation('admin');
  const action = useStaffAction(person.id);
  const reset = useSendPasswordReset(person.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inactive = person.status === 'inactive';

  async function run(kind: StaffAction) {
    setError(null);
    try {
      await action.mutateAsync(kind);
      toast({ kind: 'success', title: t(`staff.detail.done.${kind}`) });
      setConfirming(false);
    } catch (caught) {
      setError(failureText(caught, t('staff.failed')));
      setConfirming(false);
    }
  }

  async function sendReset() {
    setError(null);
    try {
      const result = await reset.mutateAsync();
      toast({ kind: 'success', title: t('staff.detail.mailSent'), description: result.detail });
    } catch (caught) {
      setError(failureText(caught, t('staff.failed')));
    }
  }

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={4}>{t('staff.detail.account')}</Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <DetailField label={t('staff.columns.lastLogin')}>
            <Text size="sm">
              {person.last_login_at ? formatDateTime(person.last_login_at) : t('staff.neverSignedIn')}
            </Text>
          </DetailField>
          <DetailField label={t('staff.fields.language')}>
            <Text size="sm">{person.language_preference === 'fr' ? 'Français' : 'English'}</Text>
          </DetailField>
          <DetailField label={t('staff.detail.pin')}>
            <Text size="sm">
              {person.has_pin ? t('staff.detail.pinSet') : t('staff.detail.pinNone')}
              {person.failed_unlock_attempts > 0 &&
                ` · ${t('staff.detail.failedUnlocks', { count: person.failed_unlock_attempts })}`}
            </Text>
          </DetailField>
          <DetailField label={t('staff.detail.created')}>
            <Text size="sm">{formatDateTime(person.created_at)}</Text>
          </DetailField>
        </SimpleGrid>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group gap="xs">
          {inactive ? (
            <Button
              color="green"
              leftSection={<IconUserCheck size={16} />}
              loading={action.isPending}
              onClick={() => void run('reactivate')}
            >
              {t('staff.detail.reactivate')}
            </Button>
          ) : (
            <Button
              color="red"
              variant="light"
              leftSection={<IconUserOff size={16} />}
              onClick={() => setConfirming(true)}
            >
              {t('staff.detail.deactivate')}
            </Button>
          )}
          {person.status !== 'invited' && (
            <Button
              variant="default"
              leftSection={<IconLockOpen size={16} />}
              loading={action.isPending && action.variables === 'reset-pin'}
              onClick={() => void run('reset-pin')}
            >
              {t('staff.detail.resetPin')}
            </Button>
          )}
          <Button
            variant="default"
            leftSection={person.status === 'invited' ? <IconMail size={16} /> : <IconKey size={16} />}
            loading={reset.isPending}
            disabled={inactive}
            onClick={() => void sendReset()}
          >
            {t(person.status === 'invited' ? 'staff.detail.resendInvitation' : 'staff.detail.sendReset')}
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('staff.detail.confirmTitle')}>
        <Stack gap="md">
          <Text size="sm" data-testid="deactivate-confirm">
            {t('staff.detail.confirmText', { name: person.full_name })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('staff.detail.cancel')}
            </Button>
            <Button color="red" loading={action.isPending} onClick={() => void run('deactivate')}>
              {t('staff.detail.confirmYes')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

export default function StaffDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('admin');
  const to = useLocalizedPath();
  const query = useStaffMember(id);
  if (query.isPending || query.isError) return <DetailQueryState query={query} blocks={[120, 240]} />;
  const person = query.data;
  return (
    <Stack gap="md" data-testid="staff-detail">
      <Anchor component={Link} to={to('/admin')} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('staff.detail.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={2}>{person.full_name}</Title>
          <Text c="dimmed" style={{ wordBreak: 'break-all' }}>
            {person.email}
          </Text>
        </Stack>
        <StaffStatusBadge status={person.status} />
      </Group>
      {person.status === 'invited' && (
        <Alert color="blue" variant="light">
          {t('staff.detail.invitedHint')}
        </Alert>
      )}
      <Memberships person={person} />
      <AccountActions person={person} />
    </Stack>
  );
}
