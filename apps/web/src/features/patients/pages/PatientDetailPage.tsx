/**
 * /patients/:id: identity with the record number, a prominent allergies alert, edit, archive (with a
 * reason), the latest visits (all of them a page at a time), the tabs later issues fill, and "Admettre" (new admission).
 */
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconArchive,
  IconBed,
  IconEdit,
  IconEye,
  IconFileText,
  IconFlask,
  IconLogin2,
  IconNotes,
  IconPill,
  IconReceipt,
  IconStethoscope,
  IconTimeline,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PatientBalancePanel } from '../../../lib/billing/PatientBalancePanel';
import { PatientCoveragePanel } from '../../../lib/billing/PatientCoveragePanel';
import { useBillingRights } from '../../../lib/billing/rights';
import { AllergyAlert } from '../../../lib/clinical/components/AllergyBadge';
import { NewAdmissionModal } from '../../../lib/clinical/components/NewAdmissionModal';
import {
  PatientConsultationsPanel,
  useConsultationsAllowed,
} from '../../../lib/clinical/components/PatientConsultationsPanel';
import { PatientExamsHistory } from '../../../lib/clinical/components/PatientExamsHistory';
import { PatientPrescriptionsPanel } from '../../../lib/clinical/components/PatientPrescriptionsPanel';
import { ageLabel, sexLabel } from '../../../lib/clinical/components/patient-format';
import { usePharmacyAllowed } from '../../../lib/clinical/components/prescription-format';
import { PatientDocumentsPanel } from '../../../lib/documents/PatientDocumentsPanel';
import { formatDate, formatDateTime } from '../../../lib/format';
import { PatientNotesPanel } from '../../../lib/notes/PatientNotesPanel';
import { DetailQueryState } from '../../../lib/page-states';
import { useModuleAllowed, usePermissions } from '../../../lib/permissions';
import { WrappingTabsList } from '../../../lib/tabs';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePatient } from '../api/get-patient';
import { ArchivePatientModal } from '../components/ArchivePatientModal';
import { EditPatientModal } from '../components/EditPatientModal';
import { PatientAccessLog } from '../components/PatientAccessLog';
import { PatientVisits } from '../components/PatientVisits';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children || '—'}</Text>
    </div>
  );
}

const LATER_TABS = [
  { value: 'exams', icon: IconFlask },
  { value: 'hospitalizations', icon: IconBed },
] as const;

export default function PatientDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('patients');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const query = usePatient(id);
  const [editing, setEditing] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [admitting, setAdmitting] = useState(false);
  const consultationsAllowed = useConsultationsAllowed();
  const pharmacyAllowed = usePharmacyAllowed();
  // The visits, documents, exams and stays go with the admissions module: not the pharmacist's or the cashier's
  // (decision 0070), who read the identity, the allergies and their own tab (prescriptions, billing).
  const visitsAllowed = useModuleAllowed('admissions');
  const billing = useBillingRights();

  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[120, 240]} testId="patient-loading" />;

  const patient = query.data;
  const archived = patient.is_archived;
  const openAdmission = patient.admissions.find((a) =>
    ['waiting', 'assigned', 'in_consultation'].includes(a.status),
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2}>{patient.full_name}</Title>
            {archived && (
              <Badge color="gray" variant="filled">
                {t('archived')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed">
            <Text span fw={700} c="var(--mantine-color-text)" data-testid="record-number">
              {patient.record_number}
            </Text>{' '}
            · {sexLabel(patient.sex)} · {ageLabel(patient.age, patient.birth_date_estimated)}
          </Text>
        </div>
        {!archived && (
          <Group gap="xs">
            {can('patient.register') && (
              <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEditing(true)}>
                {t('actions.edit')}
              </Button>
            )}
            {can('patient.archive') && (
              <Button
                variant="default"
                color="orange"
                leftSection={<IconArchive size={16} />}
                onClick={() => setArchiving(true)}
              >
                {t('actions.archive')}
              </Button>
            )}
            {can('admission.create') && !openAdmission && (
              <Button leftSection={<IconLogin2 size={16} />} onClick={() => setAdmitting(true)}>
                {t('actions.admit')}
              </Button>
            )}
            {visitsAllowed && openAdmission && (
              <Button component={Link} to={to(`/admissions/${openAdmission.id}`)} variant="light">
                {t('actions.openAdmission')}
              </Button>
            )}
          </Group>
        )}
      </Group>

      {archived && (
        <Alert color="gray" title={t('archivedTitle')}>
          {t('archivedOn', { date: formatDateTime(patient.archived_at) })}
          {patient.archived_reason ? ` — ${patient.archived_reason}` : ''}
        </Alert>
      )}
      {patient.deceased_at && (
        <Alert
          color="dark"
          variant="filled"
          title={t('deceasedOn', { date: formatDateTime(patient.deceased_at) })}
        />
      )}
      <AllergyAlert allergies={patient.allergies} recorded={patient.allergies_recorded} />

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md">
          <Field label={t('form.birth_date')}>
            {patient.birth_date_estimated
              ? `≈ ${formatDate(patient.birth_date)}`
              : formatDate(patient.birth_date)}
          </Field>
          <Field label={t('form.phone')}>{patient.phone}</Field>
          <Field label={t('form.email')}>{patient.email}</Field>
          <Field label={t('form.preferred_language')}>
            {patient.preferred_language ? t(`form.languages.${patient.preferred_language}`) : null}
          </Field>
          <Field label={t('form.national_id')}>{patient.national_id}</Field>
          <Field label={t('form.blood_group')}>{patient.blood_group}</Field>
          <Field label={t('form.address')}>{patient.address}</Field>
          <Field label={t('form.emergency_contact_name')}>
            {[patient.emergency_contact_name, patient.emergency_contact_phone].filter(Boolean).join(' · ')}
          </Field>
          <Field label={t('form.insurance_provider')}>
            {[patient.insurance_provider, patient.insurance_number].filter(Boolean).join(' · ')}
          </Field>
          <Field label={t('registeredOn')}>{formatDate(patient.created_at)}</Field>
        </SimpleGrid>
      </Paper>

      <Paper withBorder radius="md" p={0}>
        <Tabs
          defaultValue={
            visitsAllowed
              ? 'admissions'
              : pharmacyAllowed
                ? 'prescriptions'
                : billing.balance
                  ? 'billing'
                  : null
          }
          keepMounted={false}
        >
          <WrappingTabsList px="sm">
            {visitsAllowed && (
              <Tabs.Tab value="admissions" leftSection={<IconTimeline size={16} />}>
                {t('tabs.admissions.label')}
              </Tabs.Tab>
            )}
            {consultationsAllowed && (
              <Tabs.Tab value="consultations" leftSection={<IconStethoscope size={16} />}>
                {t('tabs.consultations.label')}
              </Tabs.Tab>
            )}
            {pharmacyAllowed && (
              <Tabs.Tab value="prescriptions" leftSection={<IconPill size={16} />}>
                {t('tabs.prescriptions.label')}
              </Tabs.Tab>
            )}
            {visitsAllowed && (
              <Tabs.Tab value="documents" leftSection={<IconFileText size={16} />}>
                {t('tabs.documents.label')}
              </Tabs.Tab>
            )}
            {can('patient_note.read') && (
              <Tabs.Tab value="notes" leftSection={<IconNotes size={16} />}>
                {t('notes:patientTab.label')}
              </Tabs.Tab>
            )}
            {visitsAllowed &&
              LATER_TABS.map(({ value, icon: Icon }) => (
                <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
                  {t(`tabs.${value}.label`)}
                </Tabs.Tab>
              ))}
            {billing.balance && (
              <Tabs.Tab value="billing" leftSection={<IconReceipt size={16} />}>
                {t('tabs.billing.label')}
              </Tabs.Tab>
            )}
            {can('patient.access_log') && (
              <Tabs.Tab value="access" leftSection={<IconEye size={16} />}>
                {t('accessLog.tab')}
              </Tabs.Tab>
            )}
          </WrappingTabsList>
          {visitsAllowed && (
            <Tabs.Panel value="admissions" p="lg">
              <PatientVisits patient={patient} />
            </Tabs.Panel>
          )}
          {consultationsAllowed && (
            <Tabs.Panel value="consultations" p="md">
              <PatientConsultationsPanel patient={patient} />
            </Tabs.Panel>
          )}
          {pharmacyAllowed && (
            <Tabs.Panel value="prescriptions" p="md">
              <PatientPrescriptionsPanel patientId={patient.id} />
            </Tabs.Panel>
          )}
          {visitsAllowed && (
            <Tabs.Panel value="documents" p="md">
              <PatientDocumentsPanel patientId={patient.id} archived={archived} />
            </Tabs.Panel>
          )}
          {can('patient_note.read') && (
            <Tabs.Panel value="notes" p="md">
              <PatientNotesPanel patientId={patient.id} canWrite={can('patient_note.write') && !archived} />
            </Tabs.Panel>
          )}
          {(visitsAllowed ? LATER_TABS : []).map(({ value }) => (
            <Tabs.Panel key={value} value={value} p="lg">
              {value === 'exams' ? (
                <PatientExamsHistory patientId={patient.id} archived={archived} />
              ) : (
                <Text c="dimmed">{t(`tabs.${value}.description`)}</Text>
              )}
            </Tabs.Panel>
          ))}
          {billing.balance && (
            <Tabs.Panel value="billing" p="md">
              <Stack gap="md">
                <PatientBalancePanel patientId={patient.id} invoicesLink={billing.read} />
                {billing.read && <PatientCoveragePanel patientId={patient.id} canEdit={billing.read} />}
              </Stack>
            </Tabs.Panel>
          )}
          {can('patient.access_log') && (
            <Tabs.Panel value="access" p="md">
              <PatientAccessLog patientId={patient.id} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>

      {editing && <EditPatientModal patient={patient} opened onClose={() => setEditing(false)} />}
      <ArchivePatientModal patient={patient} opened={archiving} onClose={() => setArchiving(false)} />
      <NewAdmissionModal
        opened={admitting}
        onClose={() => setAdmitting(false)}
        patient={patient}
        onCreated={(admissionId) => {
          setAdmitting(false);
          navigate(to(`/admissions/${admissionId}`));
        }}
      />
    </Stack>
  );
}
