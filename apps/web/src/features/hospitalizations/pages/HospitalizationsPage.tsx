/**
 * /hospitalizations (Hospitalisations, issue 17): the bed board, the inpatients list and the census, a link to
 * the transfers, and "Nouvelle hospitalisation" for those who admit (`hospitalization.admit`). The tab is kept in
 * the address (`?tab=list`). Changes by other users refresh the page through the refresh flags (spec §4).
 */
import { Button, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconBed, IconChartBar, IconList, IconPlus, IconTransfer } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { BedBoard } from '../components/BedBoard';
import { useInpatientRefresh } from '../components/useInpatientRefresh';

// The bed board is the first screen; the list, the census and the admission form come when opened (issue 38).
const StaysPanel = lazy(() => import('../components/StaysPanel').then((m) => ({ default: m.StaysPanel })));
const CensusPanel = lazy(() => import('../components/CensusPanel').then((m) => ({ default: m.CensusPanel })));
const StayFormModal = lazy(() =>
  import('../components/StayFormModal').then((m) => ({ default: m.StayFormModal })),
);

/** A tab's panel while its chunk comes. */
const tabLoading = <Skeleton h={240} data-testid="hospitalizations-tab-loading" />;

const TABS = ['board', 'list', 'census'] as const;
type Tab = (typeof TABS)[number];

export default function HospitalizationsPage() {
  const { t } = useTranslation('hospitalizations');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const [params, setParams] = useSearchParams();
  const [admitting, setAdmitting] = useState(false);
  useInpatientRefresh();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'board';

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <>
            <Button
              component={Link}
              to={to('/transfers')}
              variant="default"
              leftSection={<IconTransfer size={18} />}
            >
              {t('transfers.title')}
            </Button>
            {can('hospitalization.admit') && (
              <Button leftSection={<IconPlus size={18} />} onClick={() => setAdmitting(true)}>
                {t('new')}
              </Button>
            )}
          </>
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => {
          const next = new URLSearchParams(params);
          if (value && value !== 'board') next.set('tab', value);
          else next.delete('tab');
          setParams(next, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="board" leftSection={<IconBed size={16} />}>
            {t('tabs.board')}
          </Tabs.Tab>
          <Tabs.Tab value="list" leftSection={<IconList size={16} />}>
            {t('tabs.list')}
          </Tabs.Tab>
          <Tabs.Tab value="census" leftSection={<IconChartBar size={16} />}>
            {t('tabs.census')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="board" pt="md">
          <BedBoard />
        </Tabs.Panel>
        <Tabs.Panel value="list" pt="md">
          <Suspense fallback={tabLoading}>
            <StaysPanel />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="census" pt="md">
          <Suspense fallback={tabLoading}>
            <CensusPanel />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
      {admitting && (
        <Suspense fallback={null}>
          <StayFormModal opened onClose={() => setAdmitting(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
