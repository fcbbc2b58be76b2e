/**
 * The setup form of a real installation (decision 0021), shown by /register when the address carries a setup
 * link (`/register#setup=<token>`): the first hospital and its first administrator. Once done the administrator
 * is signed in, and the guest guard takes them to the dashboard of the new hospital.
 */
import { ZSetupFields } from '@greensen/shared/contracts/setup';
import { COMMON_CURRENCIES } from '@greensen/shared/contracts/structure';
import {
  Alert,
  Autocomplete,
  Button,
  Divider,
  Group,
  PasswordInput,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconBuildingHospital } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { timeZones } from '../../../lib/time-zones';
import { validateWith } from '../../../lib/zod-form';
import { completeSetup, setupStateQueryOptions } from '../api/setup';
import { AccountFields } from './AccountFields';
import { AuthFormHeader } from './AuthFormHeader';
import { AppLink } from './AuthLinks';

interface SetupValues {
  name: string;
  code: string;
  time_zone: string;
  currency: string;
  triage_scale: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  confirm: string;
  [key: string]: unknown;
}

function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone?.includes('/') ? zone : 'Africa/Kinshasa';
}

export function SetupForm({ token }: { token: string }) {
  const { t, i18n } = useTranslation('auth');
  const state = useQuery(setupStateQueryOptions(token));
  const [submitting, setSubmitting] = useState(false);
  const [general, setGeneral] = useState<string | null>(null);
  const form = useForm<SetupValues>({
    mode: 'controlled',
    initialValues: {
      name: '',
      code: '',
      time_zone: browserTimeZone(),
      currency: 'XOF',
      triage_scale: 'FRENCH',
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      confirm: '',
    },
    validate: {
      password: (value) =>
        value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX ? null : t('fields.passwordLength'),
      confirm: (value, values) => (value === values.password ? null : t('fields.passwordMismatch')),
    },
  });
  const applyServerErrors = useServerFieldErrors(form);

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    const language = i18n.language === 'en' ? 'en' : 'fr';
    const fields = validateWith(ZSetupFields, { ...values, language_preference: language }, form);
    if (!fields) return;
    setSubmitting(true);
    try {
      await completeSetup({ ...fields, token, password: values.password });
      // The link is spent: keep it out of the history. The guest guard now sends the administrator to /.
      window.history.replaceState(window.history.state, '', window.location.pathname);
    } catch (error) {
      if (isApiError(error) && error.status === 404) setGeneral(t('setup.invalidLink'));
      else setGeneral(applyServerErrors(error) ?? t('setup.failed'));
    } finally {
      setSubmitting(false);
    }
  });

  if (state.isPending) {
    return (
      <Stack gap="md" data-testid="setup-loading">
        <Skeleton height={48} />
        <Skeleton height={220} />
      </Stack>
    );
  }
  if (state.isError) {
    const gone = isApiError(state.error) && state.error.status === 404;
    return (
      <Stack gap="md">
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} />}
          title={t(gone ? 'setup.invalidLink' : 'setup.unavailable')}
          role="alert"
          data-testid="setup-invalid"
        >
          {t(gone ? 'setup.invalidLinkHint' : 'setup.unavailableHint')}
        </Alert>
        {gone ? (
          <AppLink to="/login">{t('common.backToLogin')}</AppLink>
        ) : (
          <Button variant="light" onClick={() => void state.refetch()}>
            {t('setup.retry')}
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate data-testid="setup-form">
      <Stack gap="md">
        <AuthFormHeader title={t('setup.title')} subtitle={t('setup.subtitle')} />
        <Text size="xs" c="dimmed">
          {t('setup.expires', { date: formatDateTime(state.data.expires_at) })}
        </Text>
        {general && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {general}
          </Alert>
        )}
        <Divider label={t('setup.hospital')} labelPosition="left" />
        <TextInput label={t('setup.hospitalName')} required {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <TextInput
            label={t('setup.code')}
            description={t('setup.codeHint')}
            required
            maxLength={20}
            {...form.getInputProps('code')}
          />
          <Autocomplete
            label={t('setup.currency')}
            description={t('setup.currencyHint')}
            data={[...COMMON_CURRENCIES]}
            required
            {...form.getInputProps('currency')}
          />
        </Group>
        <Select
          label={t('setup.timeZone')}
          data={timeZones()}
          searchable
          allowDeselect={false}
          required
          {...form.getInputProps('time_zone')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('setup.triageScale')}
          </Text>
          <SegmentedControl
            data={[
              { value: 'FRENCH', label: t('setup.scaleFRENCH') },
              { value: 'SATS', label: t('setup.scaleSATS') },
            ]}
            {...form.getInputProps('triage_scale')}
          />
        </Stack>
        <Divider label={t('setup.administrator')} labelPosition="left" />
        <AccountFields form={form} />
        <PasswordInput
          label={t('fields.confirmPassword')}
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          {...form.getInputProps('confirm')}
        />
        <Button type="submit" loading={submitting} leftSection={<IconBuildingHospital size={18} />} fullWidth>
          {t('setup.submit')}
        </Button>
      </Stack>
    </form>
  );
}
