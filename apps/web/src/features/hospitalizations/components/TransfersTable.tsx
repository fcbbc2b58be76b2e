/**
 * Transfers as a table: the patient, where to (a department and ward of this hospital, another hospital of the
 * installation or a facility named in words), why, who asked and when, the status; and the steps the user may
 * take, as the server gives them (`can`): accept or reject with a reason (the receiving side), complete when
 * accepted — into a free bed of the receiving side for an internal transfer — and cancel (the sending side).
 */
import { type TTransfer, ZTransferReject } from '@greensen/shared/contracts/hospitalizations';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconDoorExit, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { formatDateTime } from '../../../lib/format';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { type TransferFilters, type TransferStep, useTransferStep, useTransfers } from '../api/transfers';
import { BedPickerModal } from './BedPickerModal';
import { TransferStatusBadge } from './StayBadges';

/** Where the patient goes, in words. */
export function transferDestination(transfer: TTransfer, t: (key: string) => string): string {
  if (transfer.kind === 'internal')
    return [transfer.to_department?.name, transfer.to_ward?.name].filter(Boolean).join(' · ') || '—';
  return transfer.to_hospital?.name ?? transfer.facility_name ?? t('transfers.external');
}

function TransferActions({ transfer }: { transfer: TTransfer }) {
  const { t } = useTranslation('hospitalizations');
  const step = useTransferStep();
  const [rejecting, setRejecting] = useState(false);
  const [picking, setPicking] = useState(false);
  // The server says which steps this user may take on this transfer (its receiving side decides).
  const decide = transfer.can.accept;
  const complete = transfer.can.complete;
  const cancel = transfer.can.cancel;

  async function run(action: TransferStep, done: string) {
    try {
      await step.mutateAsync({ id: transfer.id, step: action });
      toast({ kind: 'success', title: done, description: transfer.patient.full_name });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('transfers.failed'), description: error.message });
    }
  }

  if (!decide && !complete && !cancel) return null;
  return (
    // The buttons act on their own: the row's click opens the stay.
    <Group gap={4} wrap="wrap" justify="flex-end" onClick={(event) => event.stopPropagation()}>
      {decide && (
        <>
          <Button
            size="compact-xs"
            color="green"
            leftSection={<IconCheck size={12} />}
            loading={step.isPending}
            onClick={() => void run({ action: 'accept' }, t('transfers.accepted'))}
          >
            {t('transfers.accept')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            leftSection={<IconX size={12} />}
            onClick={() => setRejecting(true)}
          >
            {t('transfers.reject')}
          </Button>
        </>
      )}
      {complete && (
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconDoorExit size={12} />}
          loading={step.isPending}
          onClick={() =>
            transfer.kind === 'internal'
              ? setPicking(true)
              : void run({ action: 'complete' }, t('transfers.completed'))
          }
        >
          {t('transfers.complete')}
        </Button>
      )}
      {cancel && (
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          loading={step.isPending}
          onClick={() => void run({ action: 'cancel' }, t('transfers.cancelled'))}
        >
          {t('transfers.cancel')}
        </Button>
      )}
      <ReasonModal
        opened={rejecting}
        onClose={() => setRejecting(false)}
        title={t('transfers.rejectTitle', { patient: transfer.patient.full_name })}
        description={<Text size="sm">{transfer.reason}</Text>}
        reasonLabel={t('transfers.rejectReason')}
        closeLabel={t('common:actions.back')}
        confirmLabel={t('transfers.reject')}
        color="red"
        schema={ZTransferReject}
        onConfirm={(reason) => step.mutateAsync({ id: transfer.id, step: { action: 'reject', reason } })}
        doneTitle={t('transfers.rejected')}
      />
      {transfer.kind === 'internal' && (
        <BedPickerModal
          opened={picking}
          onClose={() => setPicking(false)}
          title={t('transfers.completeTitle', { patient: transfer.patient.full_name })}
          description={t('transfers.completeHint', { destination: transferDestination(transfer, t) })}
          filters={
            transfer.to_ward
              ? { ward: transfer.to_ward.id }
              : { department: transfer.to_department?.id ?? null }
          }
          onPick={async (bed) => {
            await step.mutateAsync({ id: transfer.id, step: { action: 'complete', bed } });
            toast({
              kind: 'success',
              title: t('transfers.completed'),
              description: transfer.patient.full_name,
            });
          }}
        />
      )}
    </Group>
  );
}

export function TransfersTable({
  filters,
  onPageChange,
  emptyText,
}: {
  filters: TransferFilters;
  onPageChange: (page: number) => void;
  emptyText: string;
}) {
  const { t } = useTranslation('hospitalizations');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const query = useTransfers(filters);
  return (
    <PagedQueryTable<TTransfer>
      query={query}
      page={filters.page}
      onPageChange={onPageChange}
      pageSize={filters.pageSize}
      noRecordsText={emptyText}
      onRowClick={
        filters.hospitalization
          ? undefined
          : ({ record }) => !record.incoming && navigate(to(`/hospitalizations/${record.hospitalization}`))
      }
      columns={[
        ...(filters.hospitalization
          ? []
          : [
              {
                accessor: 'patient',
                title: t('columns.patient'),
                render: (tr: TTransfer) => <PatientCell patient={tr.patient} />,
              },
            ]),
        {
          accessor: 'destination',
          title: t('transfers.columns.destination'),
          render: (tr) => (
            <Stack gap={2}>
              <Group gap={4}>
                <Badge size="xs" variant="outline" color={tr.kind === 'internal' ? 'blue' : 'grape'}>
                  {t(`transfers.kind.${tr.kind}`)}
                </Badge>
                {tr.incoming && (
                  <Badge size="xs" variant="light" color="grape">
                    {t('transfers.incoming')}
                  </Badge>
                )}
              </Group>
              <Text size="sm">{transferDestination(tr, t)}</Text>
              <Text size="xs" c="dimmed">
                {t('transfers.from', { department: tr.from_department.name })}
              </Text>
            </Stack>
          ),
        },
        {
          accessor: 'reason',
          title: t('transfers.columns.reason'),
          visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
          render: (tr) => (
            <Text size="sm" lineClamp={3}>
              {tr.reason}
            </Text>
          ),
        },
        {
          accessor: 'requested_at',
          title: t('transfers.columns.requested'),
          render: (tr) => (
            <div>
              <Text size="sm">{tr.requested_by.full_name}</Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(tr.requested_at)}
              </Text>
            </div>
          ),
        },
        {
          accessor: 'status',
          title: t('columns.status'),
          render: (tr) => (
            <Stack gap={2} align="flex-start">
              <TransferStatusBadge status={tr.status} size="xs" />
              {tr.decided_by && (
                <Text size="xs" c="dimmed">
                  {tr.decided_by.full_name} · {formatDateTime(tr.decided_at)}
                </Text>
              )}
              {tr.reject_reason && (
                <Text size="xs" c="red">
                  {tr.reject_reason}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          render: (tr) => <TransferActions transfer={tr} />,
        },
      ]}
    />
  );
}
