/** /login: email and password. */
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconLogin } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { login } from '../api/login';
import { AuthFormHeader } from '../components/AuthFormHeader';
import { AppLink } from '../components/AuthLinks';

/** The inline message for a failed login. */
export function loginErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    if (error.status === 401 || error.status === 400) return t('login.invalid');
    if ((error.status === 403 || error.status === 429) && error.detail) return error.detail;
    if (error.status === 429) return t('login.tooMany');
    if (error.status === 403) return t('login.unverified');
  }
  return t('login.unavailable');
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : t('fields.emailInvalid')),
      password: (value) => (value.length > 0 ? null : t('fields.passwordRequired')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    try {
      await login({ email: values.email.trim(), password: values.password });
      // The guest guard sends the now signed-in user on.
    } catch (caught) {
      setError(loginErrorMessage(caught, t));
      form.setFieldValue('password', '');
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthFormHeader title={t('login.title')} subtitle={t('login.subtitle')} />
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          required
          autoFocus
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label={t('fields.password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <AppLink to="/forgot-password">{t('login.forgot')}</AppLink>
        </Group>
        <Button type="submit" loading={submitting} leftSection={<IconLogin size={18} />} fullWidth>
          {t('login.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('login.noAccount')} <AppLink to="/register">{t('login.register')}</AppLink>
        </Text>
      </Stack>
    </form>
  );
}
