/**
 * The dialogs of a care execution (issue 20): recording it done at its real time (now by default, editable) or
 * not done with a reason, and assigning it to a nurse (the server notifies her: execution_assigned, or
 * execution_reassigned when someone had it).
 */
import { NOT_DONE_REASONS, type TCareExecution } from '@greensen/shared/contracts/care';
import { Chip, Group, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconCheck, IconUserShare } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api-client';
import { DateTimeField } from '../../../date-field';
import { serverErrorsFromBody } from '../../../field-errors';
import { formatTime } from '../../../format';
import { FormFooter, ModalForm } from '../../../modal-form';
import { useAssignExecution, useCareNurses, useRecordExecution } from '../../api/care';
import { fromLocalInput, realTimeError, toLocalInput } from './care-time';
import { ReasonChips } from './ReasonChips';

type Reason = (typeof NOT_DONE_REASONS)[number];

function useFailure() {
  const { t } = useTranslation('care');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const fail = (error: unknown) => {
    if (isApiError(error) && error.status === 400) {
      const server = serverErrorsFromBody(error.body);
      setErrors(server.fields);
      setGeneral(server.general);
    } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404)) {
      setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
    }
  };
  return { errors, setErrors, general, setGeneral, fail };
}

export function RecordExecutionModal({
  execution,
  initialOutcome,
  onClose,
}: {
  execution: Pick<TCareExecution, 'id' | 'scheduled_at' | 'order' | 'patient'>;
  initialOutcome: 'done' | 'not_done';
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const record = useRecordExecution();
  const [outcome, setOutcome] = useState(initialOutcome);
  const [doneAt, setDoneAt] = useState(() => toLocalInput(new Date()));
  const [reason, setReason] = useState<Reason | null>(null);
  const [note, setNote] = useState('');
  const { errors, setErrors, general, setGeneral, fail } = useFailure();
  const inFlight = useRef(false);

  const submit = () => {
    if (inFlight.current) return;
    const found: Record<string, string> = {};
    if (outcome === 'done') {
      const timeError = realTimeError(doneAt);
      if (timeError) found.done_at = t(`time.errors.${timeError}`);
    } else {
      if (!reason) found.reason = t('tasks.errors.reason');
      if (reason === 'other' && !note.trim()) found.note = t('mar.errors.note');
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setGeneral(null);
    inFlight.current = true;
    record.mutate(
      {
        id: execution.id,
        body:
          outcome === 'done'
            ? { outcome: 'done', done_at: fromLocalInput(doneAt), note: note.trim() || null }
            : { outcome: 'not_done', reason: reason ?? 'other', note: note.trim() || null },
      },
      {
        onSettled: () => {
          inFlight.current = false;
        },
        onSuccess: onClose,
        onError: fail,
      },
    );
  };

  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      size="lg"
      title={t('tasks.recordTitle', { patient: execution.patient.full_name })}
    >
      <Stack gap="md" data-testid="execution-form">
        <div>
          <Text fw={700} size="lg">
            {execution.order.title}
          </Text>
          <Text size="sm" c="dimmed">
            {t('tasks.scheduledAt', { time: formatTime(execution.scheduled_at) })}
          </Text>
        </div>
        <SegmentedControl
          fullWidth
          size="md"
          value={outcome}
          onChange={(value) => setOutcome(value as 'done' | 'not_done')}
          data={[
            { value: 'done', label: t('tasks.done') },
            { value: 'not_done', label: t('tasks.notDone') },
          ]}
        />
        {outcome === 'done' ? (
          <DateTimeField
            size="md"
            label={t('tasks.doneAt')}
            description={t('tasks.doneAtHint')}
            value={doneAt}
            max={toLocalInput(new Date())}
            onChange={setDoneAt}
            error={errors.done_at}
          />
        ) : (
          <ReasonChips
            label={t('tasks.reason')}
            reasons={NOT_DONE_REASONS}
            value={reason}
            onChange={setReason}
            labelOf={(r) => t(`tasks.reasons.${r}`)}
            error={errors.reason}
          />
        )}
        <Textarea
          size="md"
          label={t('mar.note')}
          autosize
          minRows={2}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={errors.note}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={outcome === 'done' ? t('tasks.confirmDone') : t('tasks.confirmNotDone')}
          color={outcome === 'done' ? 'green' : 'orange'}
          loading={record.isPending}
          leftSection={<IconCheck size={18} />}
        />
      </Stack>
    </ModalForm>
  );
}

export interface NurseChoice {
  id: string;
  full_name: string;
}

/** Assign or reassign to one of `nurses` (the caller first: "me"). */
export function AssignModal({
  execution,
  nurses,
  onClose,
}: {
  execution: Pick<TCareExecution, 'id' | 'order' | 'patient' | 'assignee' | 'department'>;
  nurses: NurseChoice[];
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const assign = useAssignExecution();
  const listed = useCareNurses(execution.department.id);
  const choices = [...nurses];
  for (const nurse of listed.data ?? [])
    if (!choices.some((c) => c.id === nurse.id)) choices.push({ id: nurse.id, full_name: nurse.full_name });
  const [nurse, setNurse] = useState<string | null>(null);
  const { errors, setErrors, general, fail } = useFailure();
  const submit = () => {
    if (assign.isPending) return;
    if (!nurse) {
      setErrors({ nurse: t('tasks.errors.nurse') });
      return;
    }
    assign.mutate({ id: execution.id, nurse }, { onSuccess: onClose, onError: fail });
  };
  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      title={t('tasks.assignTitle', { task: execution.order.title })}
    >
      <Stack gap="md" data-testid="assign-form">
        <Text size="sm" c="dimmed">
          {execution.assignee
            ? t('tasks.currentAssignee', { name: execution.assignee.full_name })
            : t('tasks.unassigned')}
        </Text>
        <Select
          size="md"
          label={t('tasks.assignTo')}
          data={choices
            .filter((n) => n.id !== execution.assignee?.id)
            .map((n) => ({ value: n.id, label: n.full_name }))}
          value={nurse}
          onChange={setNurse}
          searchable
          error={errors.nurse}
          nothingFoundMessage={t('tasks.noNurse')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={execution.assignee ? t('tasks.reassign') : t('tasks.assign')}
          loading={assign.isPending}
          leftSection={<IconUserShare size={18} />}
        />
      </Stack>
    </ModalForm>
  );
}
