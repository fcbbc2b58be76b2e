/**
 * Invite a person by email with one role (decision 0020; issue 36, decision 0060): the person gets a link to accept
 * the invitation (choosing a password when they have none yet); the role takes effect when they accept. The answer
 * is the same whether the address already has an account or not: "invitation sent". The form checks with the
 * server's schema and shows the server's field errors as returned.
 */
import { ZStaffInvite } from '@greensen/shared/contracts/staff';
import type { RoleCode } from '@greensen/shared/domain/roles';
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useInviteStaff } from '../api/invite-staff';
import { roleOptions, useActiveDepartmentOptions } from './staff-roles';

interface InviteValues {
  email: string;
  first_name: string;
  last_name: string;
  language_preference: 'fr' | 'en';
  role_code: string | null;
  department: string | null;
  [key: string]: unknown;
}

export function InviteStaffModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = uiLanguage();
  const form = useForm<InviteValues>({
    initialValues: {
      email: '',
      first_name: '',
      last_name: '',
      language_preference: lang,
      role_code: null,
      department: null,
    },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const invite = useInviteStaff();
  const departmentOptions = useActiveDepartmentOptions();
  const [general, setGeneral] = useState<string | null>(null);

  function close() {
    form.reset();
    setGeneral(null);
    onClose();
  }

  async function submit() {
    setGeneral(null);
    const values = form.getValues();
    const body = { ...values, role_code: (values.role_code ?? '') as RoleCode };
    if (!validateWith(ZStaffInvite, body, form)) return;
    try {
      const result = await invite.mutateAsync(body);
      toast({ kind: 'success', title: t('staff.invited'), description: result.detail });
      close();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('staff.failed')));
    }
  }

  return (
    <ModalForm opened={opened} onClose={close} title={t('staff.inviteTitle')} onSubmit={() => void submit()}>
      <Stack gap="sm">
        <TextInput
          label={t('staff.fields.email')}
          description={t('staff.fields.emailHint')}
          type="email"
          withAsterisk
          {...form.getInputProps('email')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('staff.fields.firstName')} withAsterisk {...form.getInputProps('first_name')} />
          <TextInput label={t('staff.fields.lastName')} withAsterisk {...form.getInputProps('last_name')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('staff.fields.role')}
            data={roleOptions(lang)}
            searchable
            withAsterisk
            {...form.getInputProps('role_code')}
          />
          <Select
            label={t('staff.fields.department')}
            placeholder={t('staff.fields.wholeHospital')}
            data={departmentOptions}
            searchable
            clearable
            {...form.getInputProps('department')}
          />
        </SimpleGrid>
        <Select
          label={t('staff.fields.language')}
          data={[
            { value: 'fr', label: 'Français' },
            { value: 'en', label: 'English' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('language_preference')}
        />
        <FormFooter
          general={general}
          onCancel={close}
          submitLabel={t('staff.sendInvitation')}
          loading={invite.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
