/** /profile: identity (editable names), roles, hospitals, change password. */
import type { Language } from '@greensen/shared/domain/constants';
import { roleLabel, titlePrefix } from '@greensen/shared/domain/roles';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { languageFromPath } from '../../../lib/language';
import { isPasswordLengthValid, PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { toast } from '../../../lib/toast';
import { type User, useUserStore } from '../../../stores/user';
import { changePassword } from '../api/change-password';

function IdentityCard({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { first_name: user.profile.first_name, last_name: user.profile.last_name },
    validate: {
      first_name: (value) => (value.trim() ? null : t('profile.required')),
      last_name: (value) => (value.trim() ? null : t('profile.required')),
    },
  });
  const apply = useServerFieldErrors(form);
  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    setGeneral(null);
    try {
      await api.put('profile/', {
        profile: { first_name: values.first_name.trim(), last_name: values.last_name.trim() },
      });
      useUserStore.getState().setUser(await api.get<User>('profile/'));
      toast({ kind: 'success', title: t('profile.saved') });
    } catch (error) {
      setGeneral(apply(error) ?? t('profile.saveFailed'));
    } finally {
      setSaving(false);
    }
  });
  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={4}>{t('profile.identity')}</Title>
          {general && <Alert color="red">{general}</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('profile.firstName')} {...form.getInputProps('first_name')} />
            <TextInput label={t('profile.lastName')} {...form.getInputProps('last_name')} />
            <TextInput label={t('profile.email')} value={user.email} readOnly variant="filled" />
            <TextInput label={t('profile.username')} value={user.username ?? ''} readOnly variant="filled" />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={!form.isDirty()}>
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function RolesCard({ user, lang }: { user: User; lang: Language }) {
  const { t } = useTranslation('settings');
  const hospitalName = (id?: string | null) =>
    user.hospitals.find((hospital) => hospital.id === id)?.name ?? '—';
  const departmentName = (id?: string | null) =>
    user.departments.find((department) => department.id === id)?.name ?? '—';
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={4}>{t('profile.roles')}</Title>
        {user.active_roles.length === 0 ? (
          <Text c="dimmed">{t('profile.noRoles')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('profile.role')}</Table.Th>
                  <Table.Th>{t('profile.hospital')}</Table.Th>
                  <Table.Th>{t('profile.department')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {user.active_roles.map((role) => {
                  const prefix = titlePrefix(role.role_code);
                  return (
                    <Table.Tr key={`${role.role_code}-${role.hospital}-${role.department}`}>
                      <Table.Td>
                        <Group gap={6}>
                          <Text size="sm">{roleLabel(role.role_code, lang)}</Text>
                          {prefix && (
                            <Badge size="xs" variant="light">
                              {prefix}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{hospitalName(role.hospital)}</Table.Td>
                      <Table.Td>{departmentName(role.department)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Title order={5} mt="sm">
          {t('profile.hospitals')}
        </Title>
        <Group gap="xs">
          {user.hospitals.length === 0 ? (
            <Text c="dimmed">{t('profile.noHospitals')}</Text>
          ) : (
            user.hospitals.map((hospital) => (
              <Badge key={hospital.id} variant="outline" size="lg">
                {hospital.code ? `${hospital.name} · ${hospital.code}` : hospital.name}
              </Badge>
            ))
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function ChangePasswordCard() {
  const { t } = useTranslation('settings');
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { current_password: '', new_password: '', confirm: '' },
    validate: {
      current_password: (value) => (value ? null : t('profile.required')),
      new_password: (value) => (isPasswordLengthValid(value) ? null : t('profile.passwordLength')),
      confirm: (value, values) => (value === values.new_password ? null : t('profile.passwordMismatch')),
    },
  });
  const apply = useServerFieldErrors(form);
  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    setGeneral(null);
    try {
      await changePassword({ current_password: values.current_password, new_password: values.new_password });
      form.reset();
      toast({ kind: 'success', title: t('profile.passwordChanged') });
    } catch (error) {
      setGeneral(apply(error) ?? t('profile.passwordFailed'));
    } finally {
      setSaving(false);
    }
  });
  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={4}>{t('profile.changePassword')}</Title>
          {general && <Alert color="red">{general}</Alert>}
          <PasswordInput
            label={t('profile.currentPassword')}
            autoComplete="current-password"
            {...form.getInputProps('current_password')}
          />
          <PasswordInput
            label={t('profile.newPassword')}
            description={t('profile.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            {...form.getInputProps('new_password')}
          />
          <PasswordInput
            label={t('profile.confirmPassword')}
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('profile.updatePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation('settings');
  const { pathname } = useLocation();
  const lang = languageFromPath(pathname);
  const user = useUserStore((state) => state.user);
  if (!user) return null;
  const prefix = titlePrefix(user.active_roles[0]?.role_code ?? '');
  return (
    <Stack gap="lg" maw={900}>
      <div>
        <Title order={2}>{prefix ? `${prefix} ${user.full_name}` : user.full_name}</Title>
        <Text c="dimmed">{t('profile.subtitle')}</Text>
      </div>
      <IdentityCard user={user} />
      <RolesCard user={user} lang={lang} />
      <ChangePasswordCard />
    </Stack>
  );
}
