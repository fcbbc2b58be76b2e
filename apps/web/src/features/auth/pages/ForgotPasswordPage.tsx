/** /forgot-password: asks for a reset link; the answer is the same for any email. */
import { Alert, Button, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMail, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { forgotPassword } from '../api/password';
import { AuthFormHeader } from '../components/AuthFormHeader';
import { AppLink } from '../components/AuthLinks';

/** Spec §8: 429 → too many attempts; other → the email error, the server error, or the generic text. */
export function forgotPasswordErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    if (error.status === 429) return t('forgot.tooMany');
    return (
      error.fieldError('email') ?? error.fieldError('non_field_errors') ?? error.detail ?? t('forgot.failed')
    );
  }
  return t('forgot.failed');
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: { email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : t('fields.emailInvalid')) },
  });

  const submit = form.onSubmit(async ({ email }) => {
    setSubmitting(true);
    setError(null);
    try {
      await forgotPassword(email.trim());
      setSent(true);
    } catch (caught) {
      setError(forgotPasswordErrorMessage(caught, t));
    } finally {
      setSubmitting(false);
    }
  });

  if (sent) {
    return (
      <Stack align="center" ta="center" gap="md" data-testid="forgot-success">
        <ThemeIcon size={64} radius={32} variant="light">
          <IconMailForward size={36} />
        </ThemeIcon>
        <Title order={3}>{t('forgot.sentTitle')}</Title>
        <Text>{t('forgot.sentMessage')}</Text>
        <AppLink to="/login">{t('common.backToLogin')}</AppLink>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthFormHeader title={t('forgot.title')} subtitle={t('forgot.subtitle')} />
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
          leftSection={<IconMail size={16} />}
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          {t('forgot.submit')}
        </Button>
        <Text ta="center">
          <AppLink to="/login">{t('common.backToLogin')}</AppLink>
        </Text>
      </Stack>
    </form>
  );
}
