/**
 * /register: self-registration; the account must verify its email, then wait for an assignment. With a setup link
 * (`/register#setup=<token>`, printed by the first start of an empty installation) it shows the setup form of the
 * first hospital and administrator instead: /register is a public route of the specification (§5), so the link
 * needs no exception to the guards.
 */
import { Alert, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { toast } from '../../../lib/toast';
import { register } from '../api/registration';
import { setupTokenOf } from '../api/setup';
import { AccountFields } from '../components/AccountFields';
import { AuthFormHeader } from '../components/AuthFormHeader';
import { AppLink } from '../components/AuthLinks';
import { SetupForm } from '../components/SetupForm';

/** The toast text of a failed registration (spec §8). */
export function registrationErrorMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error) && error.status > 0) {
    return error.fieldError('email') ?? t('register.failed');
  }
  return t('register.exception');
}

export default function RegisterPage() {
  const setupToken = setupTokenOf(useLocation().hash);
  if (setupToken) return <SetupForm token={setupToken} />;
  return <SelfRegistration />;
}

function SelfRegistration() {
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
        <AccountFields form={form} />
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
