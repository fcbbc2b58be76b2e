/** /reset-password/:token — the link carries uid and token ({uid}.{token}, or {token}?uid=…). */
import { Alert, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { parseResetToken, resetPassword } from '../api/password';
import { AppLink } from '../components/AuthLinks';
import { NewPasswordFields } from '../components/NewPasswordFields';

/** Spec §8: token error → invalid link; other → new_password error, the server error or the generic text. */
export function resetPasswordErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    if (error.fieldError('token') || error.fieldError('uid')) return t('reset.invalidLink');
    return (
      error.fieldError('new_password') ??
      error.fieldError('non_field_errors') ??
      error.detail ??
      t('reset.failed')
    );
  }
  return t('reset.failed');
}

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const { token: segment = '' } = useParams();
  const { search } = useLocation();
  const parsed = useMemo(() => parseResetToken(segment, search), [segment, search]);
  // An administrator's invitation (decision 0020) uses this page to choose the first password.
  const invitation = new URLSearchParams(search).get('invite') === '1';
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { new_password: '', confirm: '' },
    validate: {
      new_password: (value) =>
        value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX ? null : t('fields.passwordLength'),
      confirm: (value, values) => (value === values.new_password ? null : t('fields.passwordMismatch')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    if (!parsed) return;
    setSubmitting(true);
    setError(null);
    try {
      await resetPassword({ uid: parsed.uid, token: parsed.token, new_password: values.new_password });
      setDone(true);
    } catch (caught) {
      setError(resetPasswordErrorMessage(caught, t));
    } finally {
      setSubmitting(false);
    }
  });

  if (!parsed) {
    return (
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('reset.invalidLink')} role="alert">
          {t(invitation ? 'reset.inviteInvalidHint' : 'reset.invalidLinkHint')}
        </Alert>
        <AppLink to="/forgot-password">{t('reset.requestNew')}</AppLink>
      </Stack>
    );
  }

  if (done) {
    return (
      <Stack align="center" ta="center" gap="md" data-testid="reset-success">
        <ThemeIcon size={64} radius={32} variant="light">
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={3}>{t(invitation ? 'reset.inviteSuccessTitle' : 'reset.successTitle')}</Title>
        <Text>{t(invitation ? 'reset.inviteSuccessMessage' : 'reset.successMessage')}</Text>
        <AppLink to="/login">{t('reset.goToLogin')}</AppLink>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3}>{t(invitation ? 'reset.inviteTitle' : 'reset.title')}</Title>
        {invitation && <Text size="sm">{t('reset.inviteHint')}</Text>}
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <NewPasswordFields form={form} />
        <Button type="submit" loading={submitting} fullWidth>
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}
