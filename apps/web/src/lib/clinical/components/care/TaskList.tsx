/**
 * The tasks of a shift (issue 20): care executions and MAR doses, in the order the server gives (time, then
 * priority; overdue ones of earlier shifts first), one card per task, made for a tablet: the time large, a late
 * task in red, the patient and bed, what to do. An execution is done in one tap ("Done": now, by the caller); its
 * menu records it at another time, not done with a reason, or (re)assigns it. A dose opens the MAR's dose form
 * (given, or not given with a reason). The patient's name opens their care file.
 */
import type { TTask } from '@greensen/shared/contracts/care';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconCheck,
  IconClockEdit,
  IconDots,
  IconHandStop,
  IconHeartbeat,
  IconPill,
  IconUserCheck,
  IconUserShare,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStore } from '../../../../stores/auth';
import { rolesInHospital, useUserStore } from '../../../../stores/user';
import { isApiError } from '../../../api-client';
import { formatTime } from '../../../format';
import { uiLanguage } from '../../../i18n';
import { newIdempotencyKey } from '../../../idempotency';
import { isQueued } from '../../../offline/clinical-queue';
import { hideToast, toast } from '../../../toast';
import { useLocalizedPath } from '../../../use-localized-path';
import { useAssignExecution, useRecordExecution, useUndoExecution } from '../../api/care';
import { doseLabel, medicationName, routeLabel } from '../prescription-format';
import { DoseModal } from './DoseModal';
import { AssignModal, type NurseChoice, RecordExecutionModal } from './ExecutionModals';

/** How long the toast of a task done offers its undo (the server's bound: a minute). */
const UNDO_MS = 60_000;

type ExecutionTask = Extract<TTask, { type: 'execution' }>;
type DoseTask = Extract<TTask, { type: 'dose' }>;

type Dialog =
  | { kind: 'record'; task: ExecutionTask; outcome: 'done' | 'not_done' }
  | { kind: 'assign'; task: ExecutionTask }
  | { kind: 'dose'; task: DoseTask; outcome: 'given' | 'not_given' }
  | null;

const PRIORITY_COLOURS = { urgent: 'red', high: 'orange', normal: 'gray' } as const;

export function taskKey(task: TTask): string {
  return task.type === 'execution'
    ? `e-${task.execution.id}`
    : `d-${task.dose.prescription_line}-${task.dose.scheduled_at}`;
}

function Place({ place }: { place: DoseTask['place'] }) {
  const { t } = useTranslation('care');
  if (!place) return null;
  return (
    <Text size="sm" c="dimmed">
      {t('place', { room: place.room.name, bed: place.bed.label })}
    </Text>
  );
}

function TaskTime({ at, late }: { at: string; late: boolean }) {
  const { t } = useTranslation('care');
  return (
    <Stack gap={2} align="center" miw={64}>
      <Text fw={800} size="xl" c={late ? 'red' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatTime(at)}
      </Text>
      {late && (
        <Badge color="red" size="sm" leftSection={<IconAlertTriangle size={12} />}>
          {t('tasks.late')}
        </Badge>
      )}
    </Stack>
  );
}

export function TaskList({
  tasks,
  currentUser,
  nurses,
  emptyText,
}: {
  tasks: TTask[];
  /** The signed-in nurse ("assign to me"; null for a doctor: tasks go to nurses). */
  currentUser: NurseChoice | null;
  /** The nurses a task may be given to (besides the caller). */
  nurses: NurseChoice[];
  emptyText: string;
}) {
  const { t } = useTranslation('care');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const [dialog, setDialog] = useState<Dialog>(null);
  const record = useRecordExecution();
  const assign = useAssignExecution();
  const close = () => setDialog(null);

  const undo = useUndoExecution();
  const doneNow = (task: ExecutionTask) =>
    record.mutate(
      {
        id: task.execution.id,
        // Issue 40: a key and the nurse it was given to, so that it can wait offline and be refused if reassigned.
        body: {
          outcome: 'done',
          idempotency_key: newIdempotencyKey(),
          expected_assignee: task.execution.assignee?.id ?? null,
        },
        label: `${task.execution.order.title} — ${task.execution.patient.full_name}`,
      },
      {
        onSuccess: (answer) => {
          // Queued offline: the queue says so; the minute's undo is offered once the server has it.
          if (isQueued(answer)) return;
          // Every task may be taken back for a minute (issue 37; the server holds the bound).
          const id = `task-done-${task.execution.id}`;
          toast({
            id,
            kind: 'success',
            title: t('tasks.doneToast', { task: task.execution.order.title }),
            duration: UNDO_MS,
            description: (
              <Button
                size="xs"
                variant="light"
                mt={4}
                leftSection={<IconArrowBackUp size={14} />}
                aria-label={t('tasks.undoLabel', { task: task.execution.order.title })}
                onClick={() => {
                  hideToast(id);
                  undo
                    .mutateAsync(task.execution.id)
                    .then(() =>
                      toast({
                        kind: 'info',
                        title: t('tasks.undone'),
                        description: task.execution.order.title,
                      }),
                    )
                    .catch((error: unknown) => {
                      // Past the minute, or someone else's: the server says why.
                      if (isApiError(error) && error.status === 409)
                        toast({ kind: 'warning', title: error.message });
                    });
                }}
              >
                {t('tasks.undo')}
              </Button>
            ),
          });
        },
      },
    );

  if (tasks.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid="tasks-empty">
        {emptyText}
      </Text>
    );

  const choices = [...(currentUser ? [currentUser] : []), ...nurses.filter((n) => n.id !== currentUser?.id)];

  return (
    <Stack gap="xs" data-testid="task-list">
      {tasks.map((task) => {
        const key = taskKey(task);
        if (task.type === 'execution') {
          const e = task.execution;
          const pending = record.isPending && record.variables?.id === e.id;
          return (
            <Paper
              key={key}
              withBorder
              radius="md"
              p="sm"
              data-testid="task"
              data-late={task.late || undefined}
              style={task.late ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined}
            >
              <Group wrap="nowrap" align="center" gap="md">
                <TaskTime at={task.scheduled_at} late={task.late} />
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={700}>{e.order.title}</Text>
                    {e.priority !== 'normal' && (
                      <Badge color={PRIORITY_COLOURS[e.priority]} size="sm">
                        {t(`priority.${e.priority}`)}
                      </Badge>
                    )}
                  </Group>
                  <Group gap="xs">
                    <Anchor component={Link} to={to(`/care/${e.plan}`)} fw={600} size="sm">
                      {e.patient.full_name}
                    </Anchor>
                    <Place place={e.place} />
                  </Group>
                  <Text size="xs" c="dimmed">
                    {e.assignee
                      ? t('tasks.assignedTo', { name: e.assignee.full_name })
                      : t('tasks.unassigned')}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  {e.order.kind === 'vitals' ? (
                    // A vitals task is done by recording its vitals (issue 37): the care file's entry, which
                    // completes it.
                    <Button
                      size="md"
                      color="green"
                      component={Link}
                      to={to(`/care/${e.plan}?vitals=${e.id}`)}
                      leftSection={<IconHeartbeat size={18} />}
                      aria-label={t('tasks.enterVitalsLabel', {
                        task: e.order.title,
                        patient: e.patient.full_name,
                      })}
                    >
                      {t('tasks.enterVitals')}
                    </Button>
                  ) : (
                    <Button
                      size="md"
                      color="green"
                      leftSection={<IconCheck size={18} />}
                      loading={pending}
                      onClick={() => doneNow(task)}
                      aria-label={t('tasks.doneNowLabel', {
                        task: e.order.title,
                        patient: e.patient.full_name,
                      })}
                    >
                      {t('tasks.done')}
                    </Button>
                  )}
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon size={42} variant="default" aria-label={t('tasks.more')}>
                        <IconDots size={20} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {e.order.kind !== 'vitals' && (
                        <Menu.Item
                          leftSection={<IconClockEdit size={16} />}
                          onClick={() => setDialog({ kind: 'record', task, outcome: 'done' })}
                        >
                          {t('tasks.doneAtOther')}
                        </Menu.Item>
                      )}
                      <Menu.Item
                        leftSection={<IconHandStop size={16} />}
                        onClick={() => setDialog({ kind: 'record', task, outcome: 'not_done' })}
                      >
                        {t('tasks.notDone')}
                      </Menu.Item>
                      {currentUser && e.assignee?.id !== currentUser.id && (
                        <Menu.Item
                          leftSection={<IconUserCheck size={16} />}
                          onClick={() => assign.mutate({ id: e.id, nurse: currentUser.id })}
                        >
                          {t('tasks.takeOver')}
                        </Menu.Item>
                      )}
                      <Menu.Item
                        leftSection={<IconUserShare size={16} />}
                        onClick={() => setDialog({ kind: 'assign', task })}
                      >
                        {e.assignee ? t('tasks.reassign') : t('tasks.assign')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              </Group>
            </Paper>
          );
        }
        const { line, dose } = task;
        const overdue = dose.status === 'overdue';
        return (
          <Paper
            key={key}
            withBorder
            radius="md"
            p="sm"
            data-testid="task"
            data-late={task.late || overdue || undefined}
            style={
              task.late || overdue ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined
            }
          >
            <Group wrap="nowrap" align="center" gap="md">
              <TaskTime at={task.scheduled_at} late={task.late || overdue} />
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group gap="xs">
                  <IconPill size={16} />
                  <Text fw={700}>
                    {medicationName(line.medication, lang)} {line.strength}
                  </Text>
                  <Text size="sm">
                    {doseLabel(line.dose, line.dose_unit)} · {routeLabel(line.route)}
                  </Text>
                </Group>
                <Group gap="xs">
                  <Anchor component={Link} to={to(`/care/${task.plan}`)} fw={600} size="sm">
                    {task.patient.full_name}
                  </Anchor>
                  <Place place={task.place} />
                </Group>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="md"
                  color="green"
                  leftSection={<IconCheck size={18} />}
                  onClick={() => setDialog({ kind: 'dose', task, outcome: 'given' })}
                >
                  {t('mar.give')}
                </Button>
                <Button
                  size="md"
                  variant="light"
                  color="orange"
                  leftSection={<IconX size={18} />}
                  onClick={() => setDialog({ kind: 'dose', task, outcome: 'not_given' })}
                >
                  {t('mar.notGiven')}
                </Button>
              </Group>
            </Group>
          </Paper>
        );
      })}
      {dialog?.kind === 'record' && (
        <RecordExecutionModal
          execution={dialog.task.execution}
          initialOutcome={dialog.outcome}
          onClose={close}
        />
      )}
      {dialog?.kind === 'assign' && (
        <AssignModal execution={dialog.task.execution} nurses={choices} onClose={close} />
      )}
      {dialog?.kind === 'dose' && (
        <DoseModal
          line={dialog.task.line}
          dose={dialog.task.dose}
          patientName={dialog.task.patient.full_name}
          patient={{
            full_name: dialog.task.patient.full_name,
            record_number: dialog.task.patient.record_number,
            allergies: dialog.task.patient.allergies_recorded ? dialog.task.patient.allergies : null,
          }}
          initialOutcome={dialog.outcome}
          onClose={close}
        />
      )}
    </Stack>
  );
}

/** Role codes a care task may be assigned to (the server's rule: a nurse or a charge nurse of the department). */
const NURSE_ROLE_CODES = ['NURSE', 'CHARGE_NURSE'];

/** The signed-in user as a possible assignee ("assign to me"), when they are a nurse; null otherwise. */
export function useSelfAsNurse(): NurseChoice | null {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  if (!user) return null;
  const nurse = rolesInHospital(user, hospitalId).active_roles.some((role) =>
    NURSE_ROLE_CODES.includes(role.role_code.toUpperCase()),
  );
  return nurse ? { id: user.id, full_name: user.full_name } : null;
}

/** The nurses seen on a page of tasks (assignees), for the reassign picker. */
export function nursesOf(tasks: TTask[]): NurseChoice[] {
  const seen = new Map<string, NurseChoice>();
  for (const task of tasks) {
    if (task.type !== 'execution') continue;
    const a = task.execution.assignee;
    if (a && !seen.has(a.id)) seen.set(a.id, { id: a.id, full_name: a.full_name });
  }
  return [...seen.values()];
}
