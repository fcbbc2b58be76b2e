/**
 * /invitation/:token — a hospital's invitation (issue 36, decision 0060). The page shows the hospital and the role;
 * the person accepts (a person without a Greensen password chooses it here), and the role takes effect: nothing
 * changes for the person until they accept. Signed in or not.
 */
import type { TStaffInvitationView } from '@greensen/shared/contracts/staff';
import { humanizeRoleCode, isRoleCode, ROLE_LABELS } from '@greensen/shared/domain/roles';
import { Alert, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { uiLanguage } from '../../../lib/i18n';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../lib/password-rules';
import { acceptInvitation, checkInvitation } from '../api/invitation';
import { AppLink } from '../components/AuthLinks';
import { NewPasswordFields } from '../components/NewPasswordFields';

type State =
  | { kind: 'loading' }
  | { kind: 'invalid' }
  | { kind: 'ready'; view: TStaffInvitationView }
  | { kind: 'done'; detail: string };

export default function AcceptInvitationPage() {
  const { t } = useTranslation('auth');
  const { token = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { new_password: '', confirm: '' },
    validate: {
      new_password: (value) =>
        state.kind !== 'ready' || !state.view.needs_password
          ? null
          : value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX
            ? null
            : t('fields.passwordLength'),
      confirm: (value, values) =>
        state.kind !== 'ready' || !state.view.needs_password || value === values.new_password
          ? null
          : t('fields.passwordMismatch'),
    },
  });

  useEffect(() => {
    let live = true;
    checkInvitation(token).then(
      (view) => live && setState({ kind: 'ready', view }),
      () => live && setState({ kind: 'invalid' }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const submit = form.onSubmit(async (values) => {
    if (state.kind !== 'ready') return;
    setSubmitting(true);
    setError(null);
    try {
      const done = await acceptInvitation({
        token,
        ...(state.view.needs_password ? { new_password: values.new_password } : {}),
      });
      setState({ kind: 'done', detail: done.detail });
    } catch (caught) {
      if (isApiError(caught) && caught.fieldError('token')) setState({ kind: 'invalid' });
      else
        setError(
          (isApiError(caught) && (caught.fieldError('new_password') ?? caught.detail)) ||
            t('invitation.failed'),
        );
    } finally {
      setSubmitting(false);
    }
  });

  if (state.kind === 'loading') return <Loader aria-label={t('invitation.loading')} />;

  if (state.kind === 'invalid')
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('invitation.invalid')} role="alert">
        {t('invitation.invalidHint')}
      </Alert>
    );

  if (state.kind === 'done')
    return (
      <Stack align="center" ta="center" gap="md" data-testid="invitation-accepted">
        <ThemeIcon size={64} radius={32} variant="light">
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={3}>{t('invitation.doneTitle')}</Title>
        <Text>{state.detail}</Text>
        <AppLink to="/login">{t('reset.goToLogin')}</AppLink>
      </Stack>
    );

  const { view } = state;
  const role = isRoleCode(view.role_code)
    ? ROLE_LABELS[view.role_code][uiLanguage()]
    : humanizeRoleCode(view.role_code);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" data-testid="invitation">
        <Title order={3}>{t('invitation.title', { hospital: view.hospital })}</Title>
        <Text size="sm">{t('invitation.role', { role, email: view.email })}</Text>
        <Text size="sm" c="dimmed">
          {t(view.needs_password ? 'invitation.choosePassword' : 'invitation.existingAccount')}
        </Text>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        {view.needs_password && <NewPasswordFields form={form} />}
        <Button type="submit" loading={submitting} fullWidth>
          {t('invitation.accept')}
        </Button>
      </Stack>
    </form>
  );
}
