import { Group, PasswordInput, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';

interface AccountValues {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  [key: string]: unknown;
}

/** A new account's name, email and password (self-registration, the first administrator of a setup). */
export function AccountFields<T extends AccountValues>({ form }: { form: UseFormReturnType<T> }) {
  const { t } = useTranslation('auth');
  return (
    <>
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
    </>
  );
}
