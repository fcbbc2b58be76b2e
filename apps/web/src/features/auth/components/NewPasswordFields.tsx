/** A new password typed twice (reset link, invitation): the policy's length as the hint. */
import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';

export function NewPasswordFields({
  form,
}: {
  form: UseFormReturnType<{ new_password: string; confirm: string }>;
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      <PasswordInput
        label={t('fields.newPassword')}
        description={t('fields.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        {...form.getInputProps('new_password')}
      />
      <PasswordInput
        label={t('fields.confirmPassword')}
        autoComplete="new-password"
        required
        {...form.getInputProps('confirm')}
      />
    </>
  );
}
