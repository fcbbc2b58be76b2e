/**
 * "Nouveau patient": the registration form. Before saving it asks the server for probable duplicates;
 * when there are some, the user opens the existing record or confirms a new one (POST with
 * `confirm_duplicate: true`). A 409 with duplicates (someone registered the same patient meanwhile)
 * leads to the same choice. Server field errors are shown under the fields. Shared by the patients list and the
 * booking form (a patient registered on the spot): each says what picking an existing record does.
 */
import type { TDuplicateCandidate, TPatient, TPatientCreate } from '@greensen/shared/contracts/patients';
import { Alert, Badge, Button, Group, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconExternalLink, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api-client';
import { useServerFieldErrors } from '../../field-errors';
import { FormFooter } from '../../modal-form';
import { toast } from '../../toast';
import { checkDuplicates } from '../api/check-duplicates';
import { useCreatePatient } from '../api/create-patient';
import { AllergyBadge } from './AllergyBadge';
import { EMPTY_PATIENT, PatientFields, type PatientFormValues, validateCreate } from './PatientForm';
import { ageLabel } from './patient-format';

export function RegisterPatientModal({
  opened,
  onClose,
  onCreated,
  onOpenExisting,
  openExistingLabel,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (patient: TPatient) => void;
  /** One of the probable duplicates is the patient: open their record, or pick them. */
  onOpenExisting: (patient: TDuplicateCandidate) => void;
  /** The label of that action (default "Open the record"). */
  openExistingLabel?: string;
}) {
  const { t } = useTranslation('patients');
  const form = useForm<PatientFormValues>({ initialValues: EMPTY_PATIENT });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreatePatient();
  const [checking, setChecking] = useState(false);
  const [general, setGeneral] = useState<string | null>(null);
  const [pending, setPending] = useState<{ body: TPatientCreate; duplicates: TDuplicateCandidate[] } | null>(
    null,
  );

  // Creating a second record for someone who has one splits their history: it asks for a confirmation.
  const [confirmingNew, setConfirmingNew] = useState(false);

  function close() {
    form.reset();
    setPending(null);
    setConfirmingNew(false);
    setGeneral(null);
    onClose();
  }

  async function save(body: TPatientCreate) {
    setGeneral(null);
    try {
      const patient = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('register.created'),
        description: `${patient.full_name} · ${patient.record_number}`,
      });
      form.reset();
      setPending(null);
      onCreated(patient);
    } catch (error) {
      if (isApiError(error) && error.status === 409 && error.body && typeof error.body === 'object') {
        const duplicates = (error.body as { duplicates?: TDuplicateCandidate[] }).duplicates;
        if (Array.isArray(duplicates) && duplicates.length > 0) {
          setConfirmingNew(false);
          setPending({ body, duplicates });
          return;
        }
      }
      setPending(null);
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('register.failed')));
    }
  }

  async function submit() {
    const body = validateCreate(form);
    if (!body) return;
    setChecking(true);
    setGeneral(null);
    try {
      const duplicates = await checkDuplicates({
        first_name: body.first_name,
        last_name: body.last_name,
        birth_date: body.birth_date,
        estimated_age: body.estimated_age,
        phone: body.phone,
        national_id: body.national_id,
      });
      if (duplicates.length > 0) {
        setConfirmingNew(false);
        setPending({ body, duplicates });
        return;
      }
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('register.failed')));
      return;
    } finally {
      setChecking(false);
    }
    await save({ ...body, confirm_duplicate: false });
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={pending ? t('duplicates.title') : t('register.title')}
      size="lg"
      scrollAreaComponent={ScrollArea.Autosize}
    >
      {pending ? (
        <Stack gap="md" data-testid="duplicate-warning">
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={t('duplicates.warning')}>
            {t('duplicates.explain')}
          </Alert>
          <Stack gap="xs">
            {pending.duplicates.map((candidate) => (
              <Paper key={candidate.id} withBorder p="sm" radius="md">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text fw={600}>{candidate.full_name}</Text>
                      <AllergyBadge allergies={candidate.allergies} size="xs" />
                    </Group>
                    <Text size="sm" c="dimmed">
                      {candidate.record_number} · {ageLabel(candidate.age, candidate.birth_date_estimated)}
                      {candidate.phone ? ` · ${candidate.phone}` : ''}
                    </Text>
                    <Group gap={4} mt={4}>
                      {candidate.reasons.map((reason) => (
                        <Badge key={reason} size="xs" variant="light" color="yellow">
                          {t(`duplicates.reasons.${reason}`)}
                        </Badge>
                      ))}
                    </Group>
                  </div>
                  <Button
                    size="sm"
                    leftSection={<IconExternalLink size={16} />}
                    onClick={() => {
                      close();
                      onOpenExisting(candidate);
                    }}
                  >
                    {openExistingLabel ?? t('duplicates.open')}
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
          {general && (
            <Alert color="red" role="alert">
              {general}
            </Alert>
          )}
          {confirmingNew ? (
            <Alert color="orange" title={t('duplicates.confirmTitle')} data-testid="confirm-new-record">
              <Stack gap="sm">
                <Text size="sm">{t('duplicates.confirmExplain')}</Text>
                <Group justify="flex-end" wrap="wrap">
                  <Button variant="default" onClick={() => setConfirmingNew(false)}>
                    {t('common:actions.cancel')}
                  </Button>
                  <Button
                    color="orange"
                    leftSection={<IconUserPlus size={16} />}
                    loading={create.isPending}
                    onClick={() => void save({ ...pending.body, confirm_duplicate: true })}
                  >
                    {t('duplicates.confirmYes')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            <Group justify="space-between" wrap="wrap">
              <Button variant="default" onClick={() => setPending(null)}>
                {t('duplicates.back')}
              </Button>
              <Button
                variant="subtle"
                color="orange"
                leftSection={<IconUserPlus size={16} />}
                onClick={() => setConfirmingNew(true)}
              >
                {t('duplicates.confirm')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
          noValidate
        >
          <Stack gap="md">
            <PatientFields form={form} />
            <FormFooter
              general={general}
              onCancel={close}
              submitLabel={t('register.submit')}
              loading={checking || create.isPending}
              leftSection={<IconUserPlus size={16} />}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
