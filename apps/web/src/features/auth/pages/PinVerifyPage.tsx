/**
 * /pin-verify: the lock screen. Unlock with the PIN, or with the password when the user has no PIN.
 * The server answers 401 after 5 wrong PINs: the user is then signed out.
 */
import { Alert, Avatar, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconLockOpen, IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { logout } from '../../../lib/session';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useLockStore } from '../../../stores/lock';
import { useUserStore } from '../../../stores/user';
import { unlockWithPassword, verifyPin } from '../api/pin';

export default function PinVerifyPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const user = useUserStore((state) => state.user);
  const locked = useLockStore((state) => state.locked);
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const usePin = user?.has_pin === true;

  if (!locked) return <Navigate to={to('/')} replace />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!secret) return;
    setSubmitting(true);
    setError(null);
    try {
      if (usePin) await verifyPin(secret);
      else await unlockWithPassword(secret);
      const { returnTo } = useLockStore.getState();
      useLockStore.getState().unlock();
      navigate(to(returnTo || '/'), { replace: true });
    } catch (caught) {
      setSecret('');
      if (isApiError(caught) && caught.status === 401) {
        logout();
        return;
      }
      if (isApiError(caught) && caught.status === 400) {
        const left = caught.body && typeof caught.body === 'object' ? caught.body.attempts_left : undefined;
        const base = usePin ? t('lock.wrongPin') : t('lock.wrongPassword');
        setError(typeof left === 'number' ? `${base} ${t('lock.attemptsLeft', { count: left })}` : base);
      } else {
        setError(t('lock.failed'));
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" align="stretch">
        <Stack align="center" gap={6}>
          <Avatar color="greensen" radius="xl" size={56}>
            {(user?.full_name ?? '?').charAt(0).toUpperCase()}
          </Avatar>
          <Title order={3}>{t('lock.title')}</Title>
          <Text c="dimmed" size="sm" ta="center">
            {t('lock.subtitle', { name: user?.full_name ?? '' })}
          </Text>
        </Stack>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="lock-error">
            {error}
          </Alert>
        )}
        <PasswordInput
          label={usePin ? t('lock.pin') : t('fields.password')}
          inputMode={usePin ? 'numeric' : undefined}
          autoComplete={usePin ? 'off' : 'current-password'}
          autoFocus
          value={secret}
          onChange={(event) =>
            setSecret(
              usePin ? event.currentTarget.value.replace(/\D/g, '').slice(0, 6) : event.currentTarget.value,
            )
          }
        />
        <Button type="submit" loading={submitting} leftSection={<IconLockOpen size={18} />}>
          {t('lock.unlock')}
        </Button>
        <Button variant="subtle" color="gray" leftSection={<IconLogout size={18} />} onClick={() => logout()}>
          {t('lock.signOut')}
        </Button>
      </Stack>
    </form>
  );
}
