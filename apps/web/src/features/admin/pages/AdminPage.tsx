/**
 * /admin (Administration): the settings an administrator switches in the app — maintenance mode — and the
 * background jobs. Staff, invitations and the audit viewer come with the rest of issue 15.
 */
import { Stack, Tabs } from '@mantine/core';
import { IconClockCog, IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../lib/page-states';
import { JobsPanel } from '../components/JobsPanel';
import { MaintenancePanel } from '../components/MaintenancePanel';

export default function AdminPage() {
  const { t } = useTranslation('admin');
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs defaultValue="settings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="settings" leftSection={<IconTool size={16} />}>
            {t('tabs.settings')}
          </Tabs.Tab>
          <Tabs.Tab value="jobs" leftSection={<IconClockCog size={16} />}>
            {t('tabs.jobs')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <MaintenancePanel />
        </Tabs.Panel>
        <Tabs.Panel value="jobs" pt="md">
          <JobsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
