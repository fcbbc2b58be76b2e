/** /register: self-registration; the account must verify its email, then wait for an assignment. */
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { toast } from '../../../lib/toast';
import { register } from '../api/registration';
import { AuthFormHeader } from '../components/AuthFormHeader';
import { AppLink } from '../components/AuthLinks';

/** The toast text of a failed registration (spec §8). */
export function registrationErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error) && error.status > 0) {
    return error.fieldError('email') ?? t('register.failed');
  }
  return t('register.exception');
}

export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [submitting, setSubmitting] = useState(false);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { first_name: '', last_name: '', email: '', password: '' },
    validate: {
      first_name: (value) => (value.trim() ? null : t('fields.required')),
      last_name: (value) => (value.trim() ? null : t('fields.required')),
      email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : t('fields.emailInvalid')),
      password: (value) =>
        value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX ? null : t('fields.passwordLength'),
    },
  });
  const applyServerErrors = useServerFieldErrors(form);

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setGeneral(null);
    try {
      await register({
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      setRegisteredEmail(values.email.trim());
    } catch (error) {
      setGeneral(applyServerErrors(error));
      toast({
        kind: 'error',
        title: t('register.errorTitle'),
        description: registrationErrorMessage(error, t),
      });
    } finally {
      setSubmitting(false);
    }
  });

  if (registeredEmail) {
    return (
      <Stack align="center" ta="center" gap="md" data-testid="register-success">
        <ThemeIcon size={64} radius={32} variant="light">
          <IconMailCheck size={36} />
        </ThemeIcon>
        <Title order={3}>{t('register.successTitle')}</Title>
        <Text>{t('register.successMessage', { email: registeredEmail })}</Text>
        <Text c="dimmed" size="sm">
          {t('register.successNext')}
        </Text>
        <AppLink to="/login">{t('common.backToLogin')}</AppLink>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthFormHeader title={t('register.title')} subtitle={t('register.subtitle')} />
        {general && <Alert color="red">{general}</Alert>}
        <Group grow align="flex-start">
          <TextInput
            label={t('fields.firstName')}
            autoComplete="given-name"
            required
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label={t('fields.lastName')}
            autoComplete="family-name"
            required
            {...form.getInputProps('last_name')}
          />
        </Group>
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label={t('fields.password')}
          description={t('fields.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={submitting} leftSection={<IconUserPlus size={18} />} fullWidth>
          {t('register.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('register.haveAccount')} <AppLink to="/login">{t('register.signIn')}</AppLink>
        </Text>
      </Stack>
    </form>
  );
}
