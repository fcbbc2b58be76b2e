/**
 * /verify/{token} (issue 19), public: what a pharmacist or an employer sees after scanning a document's QR code
 * on a phone — valid or cancelled, the kind, number, date, issuing hospital and doctor; never medical content.
 * Outside the signed-in shell (no sign-in), in the public pages' layout.
 */
import { Alert, Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useVerification } from '../../../lib/documents/api';
import { formatDate, formatDateTime } from '../../../lib/format';

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} size="md" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

function VerifyResult({ token }: { token: string }) {
  const { t } = useTranslation('documents');
  const query = useVerification(token);
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (query.isError) {
    const status = isApiError(query.error) ? query.error.status : 0;
    if (status === 404 || status === 400) {
      return (
        <Alert
          color="red"
          icon={<IconCircleX size={20} />}
          title={t('verify.notFound')}
          data-testid="verify-unknown"
        >
          {t('verify.notFoundHint')}
        </Alert>
      );
    }
    return (
      <Alert
        color="orange"
        icon={<IconAlertTriangle size={20} />}
        title={status === 429 ? t('verify.tooMany') : t('verify.error')}
      >
        <Button
          mt="xs"
          size="xs"
          variant="white"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void query.refetch()}
        >
          {t('verify.retry')}
        </Button>
      </Alert>
    );
  }
  const doc = query.data;
  const valid = doc.status === 'valid';
  return (
    <Stack gap="md" data-testid="verify-result" data-status={doc.status}>
      <Stack align="center" gap={6}>
        <ThemeIcon size={64} radius="xl" color={valid ? 'green' : 'red'} variant="light">
          {valid ? <IconCircleCheck size={40} /> : <IconCircleX size={40} />}
        </ThemeIcon>
        <Title
          order={3}
          ta="center"
          // The scheme's text shade of the colour (AA on the light and the dark background, issue 37).
          c={valid ? 'var(--mantine-color-green-text)' : 'var(--mantine-color-red-text)'}
          data-testid="verify-status"
        >
          {valid ? t('verify.valid') : t('verify.cancelled')}
        </Title>
        {!valid && doc.cancelled_at && (
          <Text size="sm" c="dimmed">
            {t('verify.cancelledOn', { date: formatDateTime(doc.cancelled_at) })}
          </Text>
        )}
      </Stack>
      <Stack gap="sm">
        <Row label={t('verify.kind')} value={t(`kind.${doc.kind}`)} testId="verify-kind" />
        <Row label={t('verify.number')} value={doc.number} testId="verify-number" />
        <Row label={t('verify.date')} value={formatDate(doc.issued_on)} testId="verify-date" />
        <Row label={t('verify.hospital')} value={doc.hospital.name} testId="verify-hospital" />
        <Row label={t('verify.doctor')} value={doc.issuer} testId="verify-doctor" />
        <Row
          label={t('verify.patient')}
          value={
            doc.patient.birth_year === null
              ? doc.patient.initials
              : t('verify.patientBorn', { initials: doc.patient.initials, year: doc.patient.birth_year })
          }
          testId="verify-patient"
        />
        <Row label={t('issue.code')} value={doc.verification_code} testId="verify-code" />
      </Stack>
    </Stack>
  );
}

export default function VerifyDocumentPage() {
  const { token = '' } = useParams();
  // Public page outside the signed-in shell: its strings load here (the shell's loader does not run).
  const { t, ready } = useTranslation('documents');
  if (!ready) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <Stack gap="md" data-testid="verify-page">
      <Stack gap={4}>
        <Title order={3}>{t('verify.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('verify.intro')}
        </Text>
      </Stack>
      <VerifyResult token={token} />
      <Text size="xs" c="dimmed" ta="center">
        {t('verify.footer')}
      </Text>
    </Stack>
  );
}
