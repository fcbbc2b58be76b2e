/** /verify-email/:uid/:token — verifies on mount; offers to resend the email on failure. */
import { Alert, Button, Loader, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { resendVerification, verifyEmail } from '../api/registration';
import { AppLink } from '../components/AuthLinks';

/** Spec §8: the server's error, else 'Email verification failed'. */
export function verificationErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error) && error.body && typeof error.body === 'object') {
    const message = error.body.error ?? error.body.detail;
    if (typeof message === 'string' && message) return message;
  }
  return t('verify.failed');
}

type State = { status: 'pending' } | { status: 'ok' } | { status: 'error'; message: string };

export default function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const { uid = '', token = '' } = useParams();
  const [state, setState] = useState<State>({ status: 'pending' });
  const [email, setEmail] = useState('');
  const [resending, setResending] = useState(false);
  const started = useRef<string | null>(null);

  useEffect(() => {
    const key = `${uid}/${token}`;
    if (started.current === key) return;
    started.current = key;
    verifyEmail(uid, token)
      .then(() => setState({ status: 'ok' }))
      .catch((error: unknown) => setState({ status: 'error', message: verificationErrorMessage(error, t) }));
  }, [uid, token, t]);

  const resend = async () => {
    setResending(true);
    try {
      await resendVerification(email.trim());
      toast({ kind: 'success', title: t('verify.resent') });
    } catch {
      toast({ kind: 'error', title: t('verify.resendFailed') });
    } finally {
      setResending(false);
    }
  };

  if (state.status === 'pending') {
    return (
      <Stack align="center" gap="md" py="lg">
        <Loader />
        <Text>{t('verify.pending')}</Text>
      </Stack>
    );
  }

  if (state.status === 'ok') {
    return (
      <Stack align="center" ta="center" gap="md" data-testid="verify-success">
        <ThemeIcon size={64} radius={32} variant="light">
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={3}>{t('verify.successTitle')}</Title>
        <Text>{t('verify.successMessage')}</Text>
        <AppLink to="/login">{t('reset.goToLogin')}</AppLink>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('verify.errorTitle')} role="alert">
        {state.message}
      </Alert>
      <Text size="sm">{t('verify.resendHint')}</Text>
      <TextInput
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.currentTarget.value)}
      />
      <Button onClick={resend} loading={resending} disabled={!/^\S+@\S+\.\S+$/.test(email.trim())}>
        {t('verify.resend')}
      </Button>
      <AppLink to="/login">{t('common.backToLogin')}</AppLink>
    </Stack>
  );
}
