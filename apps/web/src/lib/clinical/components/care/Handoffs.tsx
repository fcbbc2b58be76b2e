/**
 * SBAR shift handoffs (issue 20), shared by the dashboard's `handoffs` tab, the ward view and the care file:
 * - `HandoffFormModal`: the outgoing nurse writes the handoff of a patient, pre-filled by the server with what
 *   changed during the shift (vitals out of range, doses not given, new orders, results), listed above the form;
 * - `HandoffView`: a written handoff to read, with "Acknowledge" for the incoming nurse (never its author);
 * - `HandoffList`: a box of the handoffs list (to give, to acknowledge, unacknowledged for the charge nurse).
 */
import type { THandoff } from '@greensen/shared/contracts/care';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Modal,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  ThemeIcon,
} from '@mantine/core';
import { IconChecks, IconClipboardText, IconPencil } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../api-client';
import { appendDictation, DictationButton } from '../../../dictation/DictationButton';
import { serverErrorsFromBody } from '../../../field-errors';
import { formatDateTime, formatTime } from '../../../format';
import { FormFooter, ModalForm } from '../../../modal-form';
import { LoadError } from '../../../page-states';
import { useLocalizedPath } from '../../../use-localized-path';
import {
  type HandoffFilters,
  type THandoffListItem,
  useAcknowledgeHandoff,
  useHandoffDraft,
  useHandoffs,
  useWriteHandoff,
} from '../../api/care';

const SBAR = ['situation', 'background', 'assessment', 'recommendation'] as const;
type Sbar = Record<(typeof SBAR)[number], string>;

export function HandoffFormModal({
  plan,
  patientName,
  onClose,
}: {
  plan: string;
  patientName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const draft = useHandoffDraft(plan);
  const write = useWriteHandoff();
  const [values, setValues] = useState<Sbar | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);

  useEffect(() => {
    if (draft.data && values === null)
      setValues({
        situation: draft.data.situation,
        background: draft.data.background,
        assessment: draft.data.assessment,
        recommendation: draft.data.recommendation,
      });
  }, [draft.data, values]);

  const submit = () => {
    if (!values || write.isPending) return;
    if (!values.situation.trim()) {
      setErrors({ situation: t('handoffs.errors.situation') });
      return;
    }
    setErrors({});
    setGeneral(null);
    write.mutate(
      { plan, ...values },
      {
        onSuccess: onClose,
        onError: (error) => {
          if (isApiError(error) && error.status === 400) {
            const server = serverErrorsFromBody(error.body);
            setErrors(server.fields);
            setGeneral(server.general);
          } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404))
            setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
        },
      },
    );
  };

  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      size="xl"
      title={t('handoffs.writeTitle', { patient: patientName })}
    >
      <Stack gap="md" data-testid="handoff-form">
        {draft.isError && <LoadError error={draft.error} onRetry={() => void draft.refetch()} />}
        {draft.isPending && <Skeleton h={240} />}
        {draft.data && (
          <>
            {draft.data.existing && (
              <Alert color="yellow" title={t('handoffs.existingTitle')}>
                {t('handoffs.existing')}
              </Alert>
            )}
            <Paper withBorder p="sm" radius="md">
              <Text fw={600} size="sm" mb={4}>
                {t('handoffs.changes', {
                  from: formatTime(draft.data.shift.start),
                  to: formatTime(draft.data.shift.end),
                })}
              </Text>
              {draft.data.changes.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('handoffs.noChanges')}
                </Text>
              ) : (
                <List size="sm" spacing={2} data-testid="handoff-changes">
                  {draft.data.changes.map((change) => (
                    <List.Item key={`${change.kind}-${change.at}-${change.text}`}>
                      <Text span size="sm" c="dimmed">
                        {formatTime(change.at)} ·{' '}
                      </Text>
                      {change.text}
                    </List.Item>
                  ))}
                </List>
              )}
            </Paper>
          </>
        )}
        {values &&
          SBAR.map((field) => (
            <Textarea
              key={field}
              size="md"
              label={t(`handoffs.sbar.${field}`)}
              description={t(`handoffs.sbarHint.${field}`)}
              autosize
              minRows={2}
              maxRows={8}
              required={field === 'situation'}
              rightSection={
                <DictationButton
                  label={t(`handoffs.sbar.${field}`)}
                  onInsert={(text) =>
                    setValues((v) => (v ? { ...v, [field]: appendDictation(v[field], text) } : v))
                  }
                />
              }
              rightSectionPointerEvents="all"
              styles={{ section: { alignItems: 'flex-start', paddingTop: 6 } }}
              value={values[field]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((v) => (v ? { ...v, [field]: value } : v));
              }}
              error={errors[field]}
            />
          ))}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('handoffs.give')}
          loading={write.isPending}
          leftSection={<IconPencil size={18} />}
        />
      </Stack>
    </ModalForm>
  );
}

export function HandoffView({ handoff: given }: { handoff: THandoff }) {
  const { t } = useTranslation('care');
  const acknowledge = useAcknowledgeHandoff();
  // Once acknowledged here, the answer shows at once (the lists refetch behind).
  const handoff = acknowledge.data ?? given;
  return (
    <Stack gap="sm" data-testid="handoff">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('handoffs.writtenBy', {
            name: handoff.author.full_name,
            time: formatDateTime(handoff.written_at),
          })}
        </Text>
        {handoff.acknowledged_by ? (
          <Badge color="green" variant="light" leftSection={<IconChecks size={12} />}>
            {t('handoffs.acknowledgedBy', {
              name: handoff.acknowledged_by.full_name,
              time: formatTime(handoff.acknowledged_at),
            })}
          </Badge>
        ) : (
          <Badge color="orange" variant="light">
            {t('handoffs.notAcknowledged')}
          </Badge>
        )}
      </Group>
      {handoff.changes.length > 0 && (
        <List size="sm" spacing={2}>
          {handoff.changes.map((change) => (
            <List.Item key={`${change.kind}-${change.at}-${change.text}`}>{change.text}</List.Item>
          ))}
        </List>
      )}
      {SBAR.map((field) =>
        handoff[field] ? (
          <div key={field}>
            <Text size="xs" fw={700} tt="uppercase" c="dimmed">
              {t(`handoffs.sbar.${field}`)}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {handoff[field]}
            </Text>
          </div>
        ) : null,
      )}
      {handoff.can.acknowledge && !handoff.acknowledged_by && (
        <Group justify="flex-end">
          <Button
            size="md"
            color="green"
            leftSection={<IconChecks size={18} />}
            loading={acknowledge.isPending}
            onClick={() => acknowledge.mutate({ id: handoff.id })}
          >
            {t('handoffs.acknowledge')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** One box of the handoffs list, paged; each line opens the form (to give) or the handoff (to read). */
export function HandoffList({
  filters,
  onPageChange,
  emptyText,
}: {
  filters: HandoffFilters;
  onPageChange: (page: number) => void;
  emptyText: string;
}) {
  const { t } = useTranslation('care');
  const to = useLocalizedPath();
  const query = useHandoffs(filters);
  const [writing, setWriting] = useState<THandoffListItem | null>(null);
  const [reading, setReading] = useState<THandoff | null>(null);

  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={160} data-testid="handoffs-loading" />;
  const data = query.data;
  const pages = Math.max(1, Math.ceil(data.count / filters.pageSize));
  return (
    <Stack gap="xs">
      {data.results.length === 0 && (
        <Text c="dimmed" ta="center" py="lg" data-testid="handoffs-empty">
          {emptyText}
        </Text>
      )}
      {data.results.map((item) => (
        <Paper key={item.handoff?.id ?? item.plan} withBorder radius="md" p="sm" data-testid="handoff-item">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <ThemeIcon variant="light" size={36} radius="md">
                <IconClipboardText size={20} />
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={to(`/care/${item.plan}`)} fw={700}>
                  {item.patient.full_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {item.place
                    ? `${item.place.ward.name} · ${t('place', { room: item.place.room.name, bed: item.place.bed.label })}`
                    : item.department.name}
                  {item.handoff
                    ? ` · ${t('handoffs.writtenBy', {
                        name: item.handoff.author.full_name,
                        time: formatDateTime(item.handoff.written_at),
                      })}`
                    : ''}
                </Text>
              </div>
            </Group>
            {item.handoff ? (
              <Button
                size="md"
                variant={item.handoff.can.acknowledge && !item.handoff.acknowledged_by ? 'filled' : 'light'}
                onClick={() => setReading(item.handoff)}
              >
                {item.handoff.can.acknowledge && !item.handoff.acknowledged_by
                  ? t('handoffs.readAndAcknowledge')
                  : t('handoffs.read')}
              </Button>
            ) : (
              <Button size="md" leftSection={<IconPencil size={18} />} onClick={() => setWriting(item)}>
                {t('handoffs.write')}
              </Button>
            )}
          </Group>
        </Paper>
      ))}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={filters.page} onChange={onPageChange} size="md" />
        </Group>
      )}
      {writing && (
        <HandoffFormModal
          plan={writing.plan}
          patientName={writing.patient.full_name}
          onClose={() => setWriting(null)}
        />
      )}
      {reading && (
        <Modal
          opened
          onClose={() => setReading(null)}
          size="lg"
          title={t('handoffs.readTitle', { patient: reading.patient.full_name })}
        >
          <HandoffView handoff={reading} />
        </Modal>
      )}
    </Stack>
  );
}
