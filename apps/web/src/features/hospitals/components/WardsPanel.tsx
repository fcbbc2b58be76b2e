/**
 * The hospital's wards (issue 15): each with its department, restrictions and beds by status; choosing one shows
 * its rooms and beds beside the list. An administrator creates and edits wards (deactivated ones on request).
 */
import type { TWard } from '@greensen/shared/contracts/structure';
import { Badge, Button, Grid, Group, Paper, Select, Stack, Switch, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { BedCounts } from '../../../lib/clinical/components/BedCounts';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { useListPage } from '../../../lib/list-filters';
import { useWards } from '../api/structure';
import { WardBeds } from './WardBeds';
import { WardFormModal } from './WardFormModal';

const PAGE_SIZE = 20;

function Restrictions({ ward }: { ward: TWard }) {
  const { t } = useTranslation('structure');
  const parts = [
    ward.category,
    ward.sex_restriction ? t(`wards.sex${ward.sex_restriction}`) : null,
    ward.min_age !== null || ward.max_age !== null
      ? t('wards.ages', { min: ward.min_age ?? 0, max: ward.max_age ?? '—' })
      : null,
  ].filter(Boolean);
  return parts.length ? (
    <Text size="xs" c="dimmed">
      {parts.join(' · ')}
    </Text>
  ) : null;
}

export function WardsPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('structure');
  const departments = useDepartments();
  const [department, setDepartment] = useState<string | null>(null);
  const [includeInactive, setIncludeInactive] = useState(false);
  const { page, setPage, resetPage } = useListPage();
  const query = useWards({ department, includeInactive, page, pageSize: PAGE_SIZE });
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<TWard | 'new' | null>(null);
  const current = selected ?? query.data?.results[0]?.id ?? null;

  return (
    <Stack gap="md" data-testid="wards-panel">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('wards.department')}
            placeholder={t('all')}
            data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
            value={department}
            onChange={resetPage(setDepartment)}
            clearable
            searchable
            w={240}
          />
          <Switch
            label={t('wards.showInactive')}
            checked={includeInactive}
            onChange={(event) => resetPage(setIncludeInactive)(event.currentTarget.checked)}
          />
        </Group>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('wards.new')}
          </Button>
        )}
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PagedQueryTable<TWard>
            query={query}
            pageSize={PAGE_SIZE}
            page={page}
            onPageChange={setPage}
            noRecordsText={t('wards.empty')}
            idAccessor="id"
            onRowClick={({ record }) => setSelected(record.id)}
            rowStyle={(ward) =>
              ward.id === current ? { background: 'var(--mantine-primary-color-light)' } : undefined
            }
            columns={[
              {
                accessor: 'name',
                title: t('wards.name'),
                render: (ward) => (
                  <Stack gap={2}>
                    <Group gap={6}>
                      <Text size="sm" fw={600}>
                        {ward.name}
                      </Text>
                      {!ward.is_active && (
                        <Badge size="xs" color="gray" variant="outline">
                          {t('inactive')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {ward.department.name} · {ward.code}
                    </Text>
                    <Restrictions ward={ward} />
                  </Stack>
                ),
              },
              {
                accessor: 'beds',
                title: t('wards.beds'),
                render: (ward) => <BedCounts beds={ward.beds} />,
              },
              ...(canManage
                ? [
                    {
                      accessor: 'actions',
                      title: '',
                      textAlign: 'right' as const,
                      render: (ward: TWard) => (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          leftSection={<IconPencil size={12} />}
                          onClick={(event) => {
                            event.stopPropagation();
                            setEditing(ward);
                          }}
                          aria-label={t('wards.editOne', { name: ward.name })}
                        >
                          {t('edit')}
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder radius="md" p="md">
            {current ? (
              <WardBeds wardId={current} canManage={canManage} />
            ) : (
              <Text c="dimmed">{t('wards.choose')}</Text>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      {editing && (
        <WardFormModal
          key={editing === 'new' ? 'new' : editing.id}
          ward={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
          onSaved={setSelected}
        />
      )}
    </Stack>
  );
}
