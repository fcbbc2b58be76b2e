/**
 * The bed board (Tableau des lits): every active ward with its rooms and beds as cards coloured by state —
 * an occupied bed shows its patient (name, age, sex, days, main diagnosis, allergy mark, a transfer under way) —
 * and the stays waiting for a bed. Those who may place patients (`hospitalization.bed`) put a pending patient in
 * a free bed or move a patient to another one by dragging, or with the keyboard: "Sélectionner" on the patient,
 * then "Attribuer" on a free bed (or "Choisir dans la liste" for a dialog of free beds); they also mark a freed
 * bed cleaning, then free. A bed taken meanwhile (409) says so and the board is fetched again.
 */
import type {
  TBoardBed,
  TBoardWard,
  THospitalizationListItem,
} from '@greensen/shared/contracts/hospitalizations';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconArrowsExchange,
  IconBed,
  IconCheck,
  IconClockHour4,
  IconHandClick,
  IconSparkles,
  IconTransfer,
  IconX,
} from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { AllergyBadge } from '../../../lib/clinical/components/AllergyBadge';
import { BED_COLORS, BedCounts } from '../../../lib/clinical/components/BedCounts';
import { ageLabel, sexLabel } from '../../../lib/clinical/components/patient-format';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useUserStore } from '../../../stores/user';
import { useAssignBed, useBedBoard, useBedHousekeeping, useCensus } from '../api/board';
import { BED_BOARD_FIRST_FILTERS } from '../pages/hospitalizations-first';
import { BedPickerModal } from './BedPickerModal';
import { PlacementConfirmModal, type PlacementTarget, placementTargetOf } from './PlacementConfirmModal';

/** The patient being placed: a pending stay (`from` null) or an occupant moving out of `from`. */
interface Selection {
  stay: string;
  name: string;
  from: string | null;
}

const DRAG_TYPE = 'application/x-greensen-stay';

function dragStart(event: DragEvent, selection: Selection) {
  event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(selection));
  event.dataTransfer.effectAllowed = 'move';
}

function dropped(event: DragEvent): Selection | null {
  try {
    const value = JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as Selection;
    return typeof value?.stay === 'string' ? value : null;
  } catch {
    return null;
  }
}

function PendingCard({
  stay,
  selected,
  canPlace,
  onSelect,
}: {
  stay: THospitalizationListItem;
  selected: boolean;
  canPlace: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation('hospitalizations');
  const to = useLocalizedPath();
  const selection: Selection = { stay: stay.id, name: stay.patient.full_name, from: null };
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      data-testid="pending-stay"
      draggable={canPlace}
      onDragStart={(event) => dragStart(event, selection)}
      style={{
        cursor: canPlace ? 'grab' : undefined,
        borderColor: selected ? 'var(--mantine-color-blue-filled)' : undefined,
        borderWidth: selected ? 2 : undefined,
      }}
    >
      <Stack gap={4}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={to(`/hospitalizations/${stay.id}`)} fw={600} size="sm" lineClamp={1}>
            {stay.patient.full_name}
          </Anchor>
          <AllergyBadge allergies={stay.patient.allergies} size="xs" />
        </Group>
        <Text size="xs" c="dimmed">
          {sexLabel(stay.patient.sex)} · {ageLabel(stay.patient.age)} · {stay.department.name}
        </Text>
        <Text size="xs" lineClamp={2}>
          {stay.provisional_diagnosis
            ? `${stay.provisional_diagnosis.code} ${stay.provisional_diagnosis.label}`
            : stay.reason}
        </Text>
        <Group gap={6} justify="space-between">
          <Badge size="xs" variant="light" color="orange" leftSection={<IconClockHour4 size={10} />}>
            {t('days', { count: stay.days })}
          </Badge>
          {canPlace && (
            <Button
              size="compact-xs"
              variant={selected ? 'filled' : 'light'}
              leftSection={<IconHandClick size={12} />}
              aria-pressed={selected}
              aria-label={t('board.selectPatient', { patient: stay.patient.full_name })}
              onClick={onSelect}
            >
              {selected ? t('board.selected') : t('board.select')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function BedCard({
  bed,
  room,
  selection,
  canPlace,
  onPlace,
  onSelect,
}: {
  bed: TBoardBed;
  room: string;
  selection: Selection | null;
  canPlace: boolean;
  onPlace: (selection: Selection, bed: TBoardBed) => void;
  onSelect: (selection: Selection) => void;
}) {
  const { t } = useTranslation('hospitalizations');
  const to = useLocalizedPath();
  const housekeeping = useBedHousekeeping();
  const [over, setOver] = useState(false);
  const occupant = bed.occupant;
  const free = bed.status === 'free';
  const dropTarget = canPlace && free;
  const movingFromHere = selection?.from === bed.id;

  async function setStatus(status: 'free' | 'cleaning') {
    try {
      await housekeeping.mutateAsync({ bed: bed.id, status });
    } catch (error) {
      if (isApiError(error) && error.status !== 403)
        toast({ kind: 'error', title: t('board.statusFailed'), description: error.message });
    }
  }

  return (
    <Paper
      withBorder
      radius="sm"
      p="xs"
      data-testid="bed-card"
      data-status={bed.status}
      aria-label={t('board.bedLabel', { room, bed: bed.label, status: t(`bedStatus.${bed.status}`) })}
      role="group"
      onDragOver={
        dropTarget
          ? (event) => {
              event.preventDefault();
              setOver(true);
            }
          : undefined
      }
      onDragLeave={dropTarget ? () => setOver(false) : undefined}
      onDrop={
        dropTarget
          ? (event) => {
              event.preventDefault();
              setOver(false);
              const moved = dropped(event);
              if (moved) onPlace(moved, bed);
            }
          : undefined
      }
      style={{
        borderLeft: `4px solid var(--mantine-color-${BED_COLORS[bed.status]}-filled)`,
        outline: over ? '2px dashed var(--mantine-color-green-filled)' : undefined,
        background: movingFromHere ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <Stack gap={4}>
        {/* An occupied bed says so by its colour and its patient; the others by a badge, on its own line
            when the card is narrow rather than cut. */}
        <Group justify="space-between" gap={4} wrap="wrap">
          <Group gap={4} wrap="nowrap">
            <IconBed size={14} />
            <Text fw={700} size="sm">
              {bed.label}
            </Text>
          </Group>
          {!occupant && (
            <Badge size="xs" variant="light" color={BED_COLORS[bed.status]}>
              {t(`bedStatus.${bed.status}`)}
            </Badge>
          )}
        </Group>
        {occupant ? (
          <Box
            draggable={canPlace}
            onDragStart={(event) =>
              dragStart(event, {
                stay: occupant.hospitalization,
                name: occupant.patient.full_name,
                from: bed.id,
              })
            }
            style={{ cursor: canPlace ? 'grab' : undefined }}
          >
            <Group gap={4} wrap="nowrap" justify="space-between">
              <Anchor
                component={Link}
                to={to(`/hospitalizations/${occupant.hospitalization}`)}
                size="sm"
                fw={600}
                lineClamp={1}
              >
                {occupant.patient.full_name}
              </Anchor>
              <AllergyBadge allergies={occupant.patient.allergies} size="xs" />
            </Group>
            <Text size="xs" c="dimmed">
              {sexLabel(occupant.patient.sex)} · {ageLabel(occupant.patient.age)} ·{' '}
              {t('days', { count: occupant.days })}
            </Text>
            {occupant.main_diagnosis && (
              <Text size="xs" lineClamp={1} title={occupant.main_diagnosis.label}>
                {occupant.main_diagnosis.code} {occupant.main_diagnosis.label}
              </Text>
            )}
            {occupant.open_transfer && (
              <Badge size="xs" color="grape" variant="light" leftSection={<IconTransfer size={10} />}>
                {t('board.transferPending')}
              </Badge>
            )}
          </Box>
        ) : bed.status === 'out_of_service' ? (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {bed.status_reason ?? t('bedStatus.out_of_service')}
          </Text>
        ) : null}
        {canPlace && (
          <Group gap={4} justify="flex-end">
            {free && selection && (
              <Button
                size="compact-xs"
                color="green"
                leftSection={<IconCheck size={12} />}
                onClick={() => onPlace(selection, bed)}
                aria-label={t(selection.from ? 'board.moveHereLabel' : 'board.assignLabel', {
                  patient: selection.name,
                  room,
                  bed: bed.label,
                })}
              >
                {selection.from ? t('board.moveHere') : t('board.assign')}
              </Button>
            )}
            {((free && !selection) || bed.status === 'cleaning') && (
              <Button
                size="compact-xs"
                variant={free ? 'subtle' : 'light'}
                color={free ? 'yellow' : 'green'}
                leftSection={free ? <IconSparkles size={12} /> : <IconCheck size={12} />}
                loading={housekeeping.isPending}
                onClick={() => void setStatus(free ? 'cleaning' : 'free')}
                aria-label={free ? undefined : t('board.markFreeLabel', { room, bed: bed.label })}
              >
                {t(free ? 'board.toCleaning' : 'board.markFree')}
              </Button>
            )}
            {occupant && !movingFromHere && (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconArrowsExchange size={12} />}
                aria-label={t('board.moveLabel', { patient: occupant.patient.full_name })}
                onClick={() =>
                  onSelect({ stay: occupant.hospitalization, name: occupant.patient.full_name, from: bed.id })
                }
              >
                {t('board.move')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function WardSection({
  ward,
  ...bedProps
}: { ward: TBoardWard } & Omit<Parameters<typeof BedCard>[0], 'bed' | 'room'>) {
  const { t } = useTranslation('hospitalizations');
  const restrictions = [
    ward.sex_restriction ? t(`board.sexOnly.${ward.sex_restriction}`) : null,
    ward.min_age !== null || ward.max_age !== null
      ? t('board.ages', { min: ward.min_age ?? 0, max: ward.max_age ?? '∞' })
      : null,
  ].filter(Boolean);
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={ward.name} data-testid="board-ward">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Title order={4}>
              {ward.name}{' '}
              <Text span c="dimmed" size="sm">
                {ward.code} · {ward.department.name}
                {restrictions.length > 0 ? ` · ${restrictions.join(' · ')}` : ''}
              </Text>
            </Title>
          </div>
          <BedCounts beds={ward.beds} />
        </Group>
        {ward.rooms.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('board.noRooms')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="sm">
            {ward.rooms.map((room) => (
              <Paper key={room.id} radius="sm" p="xs" bg="var(--mantine-color-default-hover)">
                <Text size="sm" fw={600} mb={6}>
                  {t('board.room', { name: room.name })}
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6}>
                  {room.beds.map((bed) => (
                    <BedCard key={bed.id} bed={bed} room={room.name} {...bedProps} />
                  ))}
                </SimpleGrid>
              </Paper>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

export function BedBoard() {
  const { t } = useTranslation('hospitalizations');
  const canPlace = usePermissions().can('hospitalization.bed');
  const [ward, setWard] = useState<string | null>(BED_BOARD_FIRST_FILTERS.ward);
  const [department, setDepartment] = useState<string | null>(BED_BOARD_FIRST_FILTERS.department);
  const board = useBedBoard({ ward, department });
  const myDepartment = useUserStore((state) => state.currentDepartmentId);
  const census = useCensus();
  const departments = useDepartments();
  const assign = useAssignBed();
  const [selection, setSelection] = useState<Selection | null>(null);
  const [picking, setPicking] = useState(false);
  const [confirming, setConfirming] = useState<{ chosen: Selection; target: PlacementTarget } | null>(null);

  async function place(chosen: Selection, bedId: string, overrideReason: string | null) {
    await assign.mutateAsync({ stay: chosen.stay, bed: bedId, override_reason: overrideReason });
    setSelection(null);
    toast({
      kind: 'success',
      title: t(chosen.from ? 'board.moved' : 'board.assigned'),
      description: chosen.name,
    });
  }

  /** Every placement asks first, with the server's answer on the bed's guardrails (issue 37). */
  function placeOnBoard(chosen: Selection, bed: TBoardBed) {
    if (chosen.from === bed.id) return;
    const target = placementTargetOf(board.data?.wards ?? [], bed.id);
    if (target) setConfirming({ chosen, target });
  }

  const wardOptions = (census.data?.wards ?? [])
    .filter((w) => !department || w.department.id === department)
    .map((w) => ({ value: w.id, label: `${w.name} (${w.code})` }));
  const pending = board.data?.pending ?? [];

  return (
    <Stack gap="sm" data-testid="bed-board">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('filters.department')}
          placeholder={t('filters.all')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={(value) => {
            setDepartment(value);
            setWard(null);
          }}
          clearable
          searchable
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label={t('filters.ward')}
          placeholder={t('filters.all')}
          data={wardOptions}
          value={ward}
          onChange={setWard}
          clearable
          searchable
          w={{ base: '100%', xs: 240 }}
        />
      </Group>
      {selection && (
        <Alert color="blue" icon={<IconHandClick size={18} />} role="status" data-testid="board-selection">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">
              {t(selection.from ? 'board.movingHint' : 'board.selectedHint', { patient: selection.name })}
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setPicking(true)}>
                {t('board.pickInList')}
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconX size={14} />}
                onClick={() => setSelection(null)}
              >
                {t('board.cancelSelection')}
              </Button>
            </Group>
          </Group>
        </Alert>
      )}
      {board.isError ? (
        <LoadError error={board.error} onRetry={() => void board.refetch()} />
      ) : (
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, lg: 3 }}>
            <Paper withBorder radius="md" p="sm" component="section" aria-label={t('board.pending')}>
              <Stack gap="xs">
                <Group justify="space-between" gap="xs">
                  <Title order={4}>{t('board.pending')}</Title>
                  <Badge color="orange" variant="light" data-testid="pending-count">
                    {board.data?.pending_count ?? '…'}
                  </Badge>
                </Group>
                {board.isPending ? (
                  <Skeleton h={80} />
                ) : pending.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('board.noPending')}
                  </Text>
                ) : (
                  <ScrollArea.Autosize mah={{ base: 320, lg: 'calc(100vh - 260px)' }}>
                    <Stack gap="xs">
                      {pending.map((stay) => (
                        <PendingCard
                          key={stay.id}
                          stay={stay}
                          canPlace={canPlace}
                          selected={selection?.stay === stay.id}
                          onSelect={() =>
                            setSelection(
                              selection?.stay === stay.id
                                ? null
                                : { stay: stay.id, name: stay.patient.full_name, from: null },
                            )
                          }
                        />
                      ))}
                      {(board.data?.pending_count ?? 0) > pending.length && (
                        <Text size="xs" c="dimmed">
                          {t('board.morePending', {
                            count: (board.data?.pending_count ?? 0) - pending.length,
                          })}
                        </Text>
                      )}
                    </Stack>
                  </ScrollArea.Autosize>
                )}
              </Stack>
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 9 }}>
            <Stack gap="sm">
              {board.isPending ? (
                <>
                  <Skeleton h={160} />
                  <Skeleton h={160} />
                </>
              ) : board.data.wards.length === 0 ? (
                <Text c="dimmed">{t(ward || department ? 'board.emptyFiltered' : 'board.empty')}</Text>
              ) : (
                // The wards of the user's own department first, then the others in the server's order.
                [...board.data.wards]
                  .sort(
                    (a, b) =>
                      Number(b.department.id === myDepartment) - Number(a.department.id === myDepartment),
                  )
                  .map((w) => (
                    <WardSection
                      key={w.id}
                      ward={w}
                      selection={selection}
                      canPlace={canPlace}
                      onPlace={placeOnBoard}
                      onSelect={setSelection}
                    />
                  ))
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      )}
      {selection && (
        <BedPickerModal
          opened={picking}
          onClose={() => setPicking(false)}
          title={t('board.pickTitle', { patient: selection.name })}
          onPick={async (_bed, target) => setConfirming({ chosen: selection, target })}
        />
      )}
      <PlacementConfirmModal
        stay={confirming?.chosen.stay ?? ''}
        patient={confirming?.chosen.name ?? ''}
        target={confirming?.target ?? null}
        onClose={() => setConfirming(null)}
        onConfirm={(reason) =>
          confirming ? place(confirming.chosen, confirming.target.bed, reason) : Promise.resolve()
        }
      />
    </Stack>
  );
}
