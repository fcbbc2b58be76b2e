/**
 * The hospital's staff (issue 15, decision 0020): searched by name or email, filtered by role, department,
 * state and last sign-in, a page at a time; a row opens the person's page; "Invite" adds someone by email.
 */
import { STAFF_LAST_LOGIN, type StaffLastLogin, type TStaffMember } from '@greensen/shared/contracts/staff';
import { Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useStaff } from '../api/list-staff';
import { InviteStaffModal } from './InviteStaffModal';
import { StaffStatusBadge } from './StaffStatusBadge';
import { roleOptions, rolesText } from './staff-roles';

const PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 300;

export function StaffPanel() {
  const { t } = useTranslation('admin');
  const lang = uiLanguage();
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [role, setRole] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [active, setActive] = useState<string | null>('true');
  const [lastLogin, setLastLogin] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);
  const { page, setPage, resetPage } = useListPage();
  const departments = useDepartments();
  const query = useStaff({
    search: debounced,
    role,
    department,
    active: active === null ? null : active === 'true',
    lastLogin: lastLogin as StaffLastLogin | null,
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = Boolean(debounced || role || department || active || lastLogin);

  return (
    <Stack gap="md" data-testid="staff-panel">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <SearchFilter
          label={t('staff.search')}
          placeholder={t('staff.searchPlaceholder')}
          value={search}
          onChange={resetPage(setSearch)}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
        />
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
          {t('staff.invite')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <Select
          label={t('staff.filters.role')}
          placeholder={t('staff.filters.all')}
          data={roleOptions(lang)}
          value={role}
          onChange={resetPage(setRole)}
          searchable
          clearable
        />
        <Select
          label={t('staff.filters.department')}
          placeholder={t('staff.filters.all')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={resetPage(setDepartment)}
          searchable
          clearable
        />
        <Select
          label={t('staff.filters.state')}
          placeholder={t('staff.filters.all')}
          data={[
            { value: 'true', label: t('staff.filters.active') },
            { value: 'false', label: t('staff.filters.inactive') },
          ]}
          value={active}
          onChange={resetPage(setActive)}
          clearable
        />
        <Select
          label={t('staff.filters.lastLogin')}
          placeholder={t('staff.filters.all')}
          data={STAFF_LAST_LOGIN.map((value) => ({ value, label: t(`staff.lastLogin.${value}`) }))}
          value={lastLogin}
          onChange={resetPage(setLastLogin)}
          clearable
        />
      </SimpleGrid>
      <PagedQueryTable<TStaffMember>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={filtered ? t('staff.emptyFiltered') : t('staff.empty')}
        onRowClick={({ record }) => navigate(to(`/admin/staff/${record.id}`))}
        columns={[
          {
            accessor: 'full_name',
            title: t('staff.columns.name'),
            render: (p) => (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {p.full_name}
                </Text>
                <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {p.email}
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'roles',
            title: t('staff.columns.roles'),
            render: (p) => <Text size="sm">{rolesText(p.roles, lang) || '—'}</Text>,
          },
          {
            accessor: 'status',
            title: t('staff.columns.status'),
            noWrap: true,
            render: (p) => <StaffStatusBadge status={p.status} />,
          },
          {
            accessor: 'last_login_at',
            title: t('staff.columns.lastLogin'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
            render: (p) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {p.last_login_at ? formatDateTime(p.last_login_at) : t('staff.neverSignedIn')}
              </Text>
            ),
          },
        ]}
      />
      <InviteStaffModal opened={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}
