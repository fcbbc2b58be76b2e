/**
 * /pharmacy/prescriptions/{id} (issue 18): the prescription — number, status, patient with allergies, prescriber,
 * weight, notes — its lines with the posology in words, warnings and override reasons, and for the members of a
 * pharmacy "Délivrer" (the dispense dialog). Printable with the browser (the shell is hidden when printing). A
 * prescription that does not exist is the error page (no `prescription` type in the specification: the generic
 * page-not-found texts, back to the previous page).
 */
import { Alert, Anchor, Button, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit, IconPackageExport, IconPrinter, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { usePrescription } from '../../../lib/clinical/api/prescriptions';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { PrescriptionStatusBadge } from '../../../lib/clinical/components/PrescriptionBadges';
import { PrescriptionLinesView } from '../../../lib/clinical/components/PrescriptionLinesView';
import { CancelPrescriptionModal } from '../../../lib/clinical/components/PrescriptionsPanel';
import { IssueDocumentButton } from '../../../lib/documents/IssueDocumentButton';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { PrintStyles } from '../../../lib/print-styles';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePharmacies } from '../api/pharmacies';
import { DispenseModal } from '../components/DispenseModal';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function prescriptionNotFoundPath(id: string): string {
  return `/error-404?${new URLSearchParams({ type: 'prescription', id }).toString()}`;
}

export default function PrescriptionDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const valid = UUID_RE.test(id);
  const query = usePrescription(id, valid);
  const manager = can('pharmacy.manage');
  const pharmacies = usePharmacies();
  const mine = (pharmacies.data ?? []).filter((p) => p.member);
  const [params, setParams] = useSearchParams();
  // The worklist's "Délivrer" opens the dialog with the page (`?dispense=1`).
  const [dispensing, setDispensing] = useState(params.get('dispense') === '1');
  const [cancelling, setCancelling] = useState(false);

  if (!valid) return <Navigate to={to(prescriptionNotFoundPath(id))} replace />;
  if (query.isError && isApiError(query.error) && query.error.status === 404)
    return <Navigate to={to(prescriptionNotFoundPath(id))} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 260]} testId="prescription-loading" />;

  const p = query.data;
  const open = p.status === 'signed' || p.status === 'partially_dispensed';
  const mayDispense = open && p.can.dispense && manager && mine.length > 0;

  return (
    <Stack gap="md" data-testid="prescription-page">
      <PrintStyles />
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2}>{t('detail.title', { number: p.number })}</Title>
            <PrescriptionStatusBadge status={p.status} size="lg" />
          </Group>
          <Text c="dimmed" size="sm">
            {p.department.name} · {p.prescriber.full_name}
            {p.consultation && (
              <>
                {' · '}
                <Anchor component={Link} to={to(`/consultations/${p.consultation}`)} size="sm">
                  {t('detail.consultation')}
                </Anchor>
              </>
            )}
          </Text>
        </div>
        <Group gap="xs" data-no-print>
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            {t('detail.print')}
          </Button>
          {p.status !== 'draft' && p.status !== 'cancelled' && (
            <IssueDocumentButton source={{ type: 'prescription', id: p.id }} />
          )}
          {p.can.cancel && (
            <Button
              variant="default"
              color="red"
              leftSection={<IconX size={16} />}
              onClick={() => setCancelling(true)}
            >
              {t('actions.cancel')}
            </Button>
          )}
          {mayDispense && (
            <Button leftSection={<IconPackageExport size={16} />} onClick={() => setDispensing(true)}>
              {t('detail.dispense')}
            </Button>
          )}
        </Group>
      </Group>

      {p.status === 'cancelled' && (
        <Alert color="gray" icon={<IconX size={18} />}>
          {t('detail.cancelled', { date: formatDateTime(p.cancelled_at), reason: p.cancel_reason ?? '' })}
        </Alert>
      )}
      {p.status === 'draft' && <Alert color="yellow">{t('detail.draft')}</Alert>}
      {p.safety?.patient_left && (
        <Alert color="red" variant="light" icon={<IconDoorExit size={18} />} data-testid="patient-left">
          {t('dispense.patientLeft')}
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md">
              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
                <DetailField label={t('detail.created')}>{formatDateTime(p.created_at)}</DetailField>
                <DetailField label={t('detail.signed')}>{formatDateTime(p.signed_at) || '—'}</DetailField>
                <DetailField label={t('detail.weight')}>
                  {p.weight_kg !== null ? `${formatNumber(Number(p.weight_kg))} kg` : '—'}
                </DetailField>
                <DetailField label={t('detail.lines')}>{p.lines.length}</DetailField>
              </SimpleGrid>
              {p.notes && (
                <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {p.notes}
                </Text>
              )}
            </Paper>
            <PrescriptionLinesView lines={p.lines} warnings={p.warnings} alerts={p.safety?.alerts} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <PatientBanner patient={p.patient} />
        </Grid.Col>
      </Grid>

      {dispensing && mayDispense && (
        <DispenseModal
          prescription={p}
          pharmacies={mine}
          opened
          onClose={() => {
            setDispensing(false);
            if (params.has('dispense')) setParams({}, { replace: true });
          }}
        />
      )}
      <CancelPrescriptionModal prescription={cancelling ? p : null} onClose={() => setCancelling(false)} />
    </Stack>
  );
}
