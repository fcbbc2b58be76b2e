/**
 * /hospitals (Hôpitaux, issue 15): the current hospital's wards with their rooms and beds, its departments and
 * its own details (another hospital is created from there too).
 * Every member may look; administrators change the structure (the server enforces it too).
 */
import { Stack, Tabs } from '@mantine/core';
import { IconBed, IconBuildingHospital, IconId } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { DepartmentsPanel } from '../components/DepartmentsPanel';
import { HospitalPanel } from '../components/HospitalPanel';
import { WardsPanel } from '../components/WardsPanel';

export default function HospitalsPage() {
  const { t } = useTranslation('structure');
  const canManage = usePermissions().can('structure.manage');
  const [tab, setTab] = useState<string | null>('wards');
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t(canManage ? 'subtitle' : 'subtitleReadOnly')} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="wards" leftSection={<IconBed size={16} />}>
            {t('tabs.wards')}
          </Tabs.Tab>
          <Tabs.Tab value="departments" leftSection={<IconBuildingHospital size={16} />}>
            {t('tabs.departments')}
          </Tabs.Tab>
          <Tabs.Tab value="hospital" leftSection={<IconId size={16} />}>
            {t('tabs.hospital')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="wards" pt="md">
          <WardsPanel canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="departments" pt="md">
          <DepartmentsPanel canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="hospital" pt="md">
          <HospitalPanel canManage={canManage} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
