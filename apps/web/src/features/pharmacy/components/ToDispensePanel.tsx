/**
 * The À délivrer tab: the prescriptions signed or partially dispensed (the pharmacy's worklist), the urgent ones
 * first with their « Urgent » badge (issue 37), then the oldest signature first, as the server orders them —
 * number, patient with allergies, prescriber, medicines; "Lignes"
 * unfolds the lines with their posology and any allergy override reason; members open the dispensing.
 */
import {
  Anchor,
  Badge,
  Button,
  Collapse,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconChevronUp,
  IconDoorExit,
  IconPackageExport,
  IconUrgent,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type TPrescriptionListItem,
  usePrescription,
  usePrescriptions,
} from '../../../lib/clinical/api/prescriptions';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { PrescriptionStatusBadge } from '../../../lib/clinical/components/PrescriptionBadges';
import { PrescriptionLinesView } from '../../../lib/clinical/components/PrescriptionLinesView';
import { formatDate, formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { TO_DISPENSE_PAGE_SIZE, toDispenseFilters } from './pharmacist-first';

function Lines({ id }: { id: string }) {
  const query = usePrescription(id);
  if (query.isPending) return <Skeleton h={80} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return <PrescriptionLinesView lines={query.data.lines} warnings={query.data.warnings} />;
}

/** A list item of the worklist; `patient_left` when the server says the patient has left (issue 34). */
type WorklistItem = TPrescriptionListItem & { patient_left?: boolean; patient_left_at?: string | null };

function WorklistRow({ prescription, manage }: { prescription: WorklistItem; manage: boolean }) {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const [open, setOpen] = useState(false);
  const path = `/pharmacy/prescriptions/${prescription.id}`;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="to-dispense-row">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <PatientCell patient={prescription.patient} />
          <Group gap="xs">
            {prescription.urgent && (
              <Badge
                color="red"
                variant="filled"
                size="sm"
                leftSection={<IconUrgent size={12} />}
                data-testid="urgent-badge"
              >
                {t('worklist.urgent')}
              </Badge>
            )}
            {prescription.patient_left && (
              <Badge
                color="red"
                variant="light"
                size="sm"
                leftSection={<IconDoorExit size={12} />}
                data-testid="patient-left-badge"
              >
                {prescription.patient_left_at
                  ? t('worklist.patientLeftOn', { date: formatDate(prescription.patient_left_at) })
                  : t('worklist.patientLeft')}
              </Badge>
            )}
            {prescription.allergy_override && (
              <Badge color="red" variant="filled" size="sm" leftSection={<IconAlertTriangle size={12} />}>
                {t('worklist.allergyOverride')}
              </Badge>
            )}
            {prescription.refused_lines > 0 && (
              <Badge color="red" variant="outline" size="sm" data-testid="refused-lines-badge">
                {t('refusal.badge', { count: prescription.refused_lines })}
              </Badge>
            )}
            <PrescriptionStatusBadge status={prescription.status} size="sm" />
          </Group>
        </Group>
        <Text size="sm">
          <Anchor component={Link} to={to(path)} fw={600} size="sm">
            {prescription.number}
          </Anchor>{' '}
          · {prescription.summary}
        </Text>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="xs" c="dimmed">
            {prescription.prescriber.full_name} · {prescription.department.name} ·{' '}
            {formatDateTime(prescription.signed_at ?? prescription.created_at)}
          </Text>
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="subtle"
              rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
              onClick={() => setOpen((o) => !o)}
              aria-expanded={open}
            >
              {t('worklist.lines', { count: prescription.line_count })}
            </Button>
            {manage && prescription.can.dispense && (
              <Button
                size="compact-sm"
                component={Link}
                to={to(`${path}?dispense=1`)}
                leftSection={<IconPackageExport size={14} />}
              >
                {t('detail.dispense')}
              </Button>
            )}
          </Group>
        </Group>
        <Collapse expanded={open}>{open && <Lines id={prescription.id} />}</Collapse>
      </Stack>
    </Paper>
  );
}

export function ToDispensePanel({ manage }: { manage: boolean }) {
  const { t } = useTranslation('pharmacy');
  const [page, setPage] = useState(1);
  const query = usePrescriptions(toDispenseFilters(page));
  if (query.isPending) return <Skeleton h={160} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const { results, count } = query.data;
  return (
    <Stack gap="sm" data-testid="to-dispense">
      {results.length === 0 ? (
        <Text c="dimmed">{t('worklist.empty')}</Text>
      ) : (
        results.map((p) => <WorklistRow key={p.id} prescription={p} manage={manage} />)
      )}
      {count > TO_DISPENSE_PAGE_SIZE && (
        <Group justify="flex-end">
          <Pagination
            total={Math.ceil(count / TO_DISPENSE_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      )}
    </Stack>
  );
}
