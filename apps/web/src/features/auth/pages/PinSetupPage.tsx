/** /pin-setup: choose a 4–6 digit PIN (confirmed) with the current password. */
import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { PIN_PATTERN } from '../../../lib/password-rules';
import { refreshUser } from '../../../lib/profile';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { setupPin } from '../api/pin';

export default function PinSetupPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const [general, setGeneral] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { pin: '', confirm: '', password: '' },
    validate: {
      pin: (value) => (PIN_PATTERN.test(value) ? null : t('pin.format')),
      confirm: (value, values) => (value === values.pin ? null : t('pin.mismatch')),
      password: (value) => (value ? null : t('fields.passwordRequired')),
    },
  });
  const applyServerErrors = useServerFieldErrors(form);

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setGeneral(null);
    try {
      await setupPin({ pin: values.pin, password: values.password });
      await refreshUser();
      toast({ kind: 'success', title: t('pin.saved') });
      navigate(to('/settings'));
    } catch (error) {
      setGeneral(applyServerErrors(error) ?? t('pin.saveFailed'));
    } finally {
      setSubmitting(false);
    }
  });

  const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, 6);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={3}>{t('pin.setupTitle')}</Title>
          <Text c="dimmed" size="sm">
            {t('pin.setupSubtitle')}
          </Text>
        </div>
        {general && <Alert color="red">{general}</Alert>}
        <PasswordInput
          label={t('pin.new')}
          inputMode="numeric"
          autoComplete="off"
          required
          {...form.getInputProps('pin')}
          onChange={(event) => form.setFieldValue('pin', digitsOnly(event.currentTarget.value))}
        />
        <PasswordInput
          label={t('pin.confirm')}
          inputMode="numeric"
          autoComplete="off"
          required
          {...form.getInputProps('confirm')}
          onChange={(event) => form.setFieldValue('confirm', digitsOnly(event.currentTarget.value))}
        />
        <PasswordInput
          label={t('fields.currentPassword')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group grow>
          <Button variant="default" onClick={() => navigate(to('/settings'))}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={submitting} leftSection={<IconLock size={18} />}>
            {t('pin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
