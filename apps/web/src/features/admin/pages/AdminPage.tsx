/**
 * /admin (Administration): the hospital's staff (invitations, roles, deactivation), the audit viewer, the
 * settings an administrator switches in the app — the hospital's settings and maintenance mode, a link to the
 * providers' schedules and public holidays (/calendar) — and the background jobs.
 */
import { Anchor, Stack, Tabs } from '@mantine/core';
import { IconCalendarCog, IconClockCog, IconListSearch, IconTool, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { AuditPanel } from '../components/AuditPanel';
import { HospitalSettingsPanel } from '../components/HospitalSettingsPanel';
import { JobsPanel } from '../components/JobsPanel';
import { MaintenancePanel } from '../components/MaintenancePanel';
import { StaffPanel } from '../components/StaffPanel';

export default function AdminPage() {
  const { t } = useTranslation('admin');
  const to = useLocalizedPath();
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs defaultValue="staff" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="staff" leftSection={<IconUsers size={16} />}>
            {t('tabs.staff')}
          </Tabs.Tab>
          <Tabs.Tab value="audit" leftSection={<IconListSearch size={16} />}>
            {t('tabs.audit')}
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconTool size={16} />}>
            {t('tabs.settings')}
          </Tabs.Tab>
          <Tabs.Tab value="jobs" leftSection={<IconClockCog size={16} />}>
            {t('tabs.jobs')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="staff" pt="md">
          <StaffPanel />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditPanel />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <Stack gap="md">
            <HospitalSettingsPanel />
            {/* Schedules and holidays live on /calendar, outside the appointments module she does not use. */}
            <Anchor component={Link} to={to('/calendar?tab=schedules')} data-testid="admin-schedules-link">
              <IconCalendarCog size={16} style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
              {t('schedulesLink')}
            </Anchor>
            <MaintenancePanel />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="jobs" pt="md">
          <JobsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
