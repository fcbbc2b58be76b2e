/**
 * / and /dashboard: the user's dashboards (several for a head doctor: doctor and admin — he starts on the
 * hospital overview, issue 37), and the access-denied message after a module refusal. The pharmacist's and the
 * cashier's home screens (decision 0070) show the tabs their features registered (lib/home-screens.ts).
 */
import { DEFAULT_REFUSAL } from '@greensen/shared/domain/access';
import type { Language } from '@greensen/shared/domain/constants';
import { type DashboardConfig, dashboardsForUser, homeDashboard } from '@greensen/shared/domain/dashboards';
import { Alert, Center, Loader, SegmentedControl, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { homeScreen } from '../../../lib/home-screens';
import { languageFromPath } from '../../../lib/language';
import { lazyComponent } from '../../../lib/lazy-component';
import { useAuthStore } from '../../../stores/auth';
import { useRefreshFlagsStore } from '../../../stores/refresh-flags';
import { rolesInHospital, useUserStore } from '../../../stores/user';
import { DashboardFrame } from '../components/DashboardFrame';
import {
  loadAdminDashboard,
  loadDoctorDashboard,
  loadNurseDashboard,
  loadSecretaryDashboard,
} from '../components/dashboard-loaders';

// Each role's dashboard is its own chunk (scripts/check-bundle.mjs counts the heaviest one in the signed-in screen);
// the user's own is usually in before the page renders (app/page-prefetch.ts).
const DoctorDashboard = lazyComponent(loadDoctorDashboard);
const NurseDashboard = lazyComponent(loadNurseDashboard);
const AdminDashboard = lazyComponent(loadAdminDashboard);
const SecretaryDashboard = lazyComponent(loadSecretaryDashboard);

/** Dashboards with their own content; the others show what each tab will hold. */
const WITH_CONTENT: readonly string[] = ['doctor', 'secretary', 'nurse', 'admin'];

/** A dashboard whose tabs a feature registered (the pharmacist's, the cashier's); else the tabs' descriptions. */
function RegisteredHome(props: { config: DashboardConfig; lang: Language; hospitalId: string | null }) {
  const Home = homeScreen(props.config.kind);
  const fallback = (
    <Center py="xl">
      <Loader size="sm" />
    </Center>
  );
  const panels = Home
    ? Object.fromEntries(
        props.config.allowedTabs.map((tab) => [
          tab,
          <Suspense key={tab} fallback={fallback}>
            <Home tab={tab} refreshInterval={props.config.refreshInterval} />
          </Suspense>,
        ]),
      )
    : undefined;
  return <DashboardFrame {...props} panels={panels} />;
}

export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { pathname } = useLocation();
  const lang = languageFromPath(pathname);
  const [params, setParams] = useSearchParams();
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const dashboards = dashboardsForUser(rolesInHospital(user, hospitalId));
  const [selected, setSelected] = useState<string | null>(null);
  const current = dashboards.find((dashboard) => dashboard.kind === selected) ?? homeDashboard(dashboards);

  const denied = params.get('access_denied') === 'true';
  const deniedMessage = params.get('message') || DEFAULT_REFUSAL[lang];

  // A notification raised the dashboard refresh flag: refresh now and lower it.
  const flag = useRefreshFlagsStore((state) => state.dashboard);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!flag) return;
    // Lowered once the dashboard data has been fetched again.
    void queryClient
      .invalidateQueries({ queryKey: ['dashboard'] })
      .finally(() => useRefreshFlagsStore.getState().reset('dashboard'));
  }, [flag, queryClient]);

  return (
    <Stack gap="lg">
      {denied && (
        <Alert
          color="red"
          icon={<IconLock size={18} />}
          title={DEFAULT_REFUSAL[lang]}
          withCloseButton
          closeButtonLabel={t('closeAlert')}
          onClose={() => {
            params.delete('access_denied');
            params.delete('message');
            setParams(params, { replace: true });
          }}
          data-testid="access-denied"
          role="alert"
        >
          {deniedMessage}
        </Alert>
      )}
      {dashboards.length > 1 && (
        <SegmentedControl
          aria-label={t('switcher')}
          value={current?.kind ?? ''}
          onChange={setSelected}
          data={dashboards.map((dashboard) => ({ value: dashboard.kind, label: dashboard.title[lang] }))}
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      <Suspense
        fallback={
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        }
      >
        {current?.kind === 'doctor' && (
          <DoctorDashboard key={current.kind} config={current} lang={lang} hospitalId={hospitalId} />
        )}
        {current?.kind === 'secretary' && (
          <SecretaryDashboard key={current.kind} config={current} lang={lang} hospitalId={hospitalId} />
        )}
        {current?.kind === 'admin' && (
          <AdminDashboard key={current.kind} config={current} lang={lang} hospitalId={hospitalId} />
        )}
        {current?.kind === 'nurse' && (
          <NurseDashboard key={current.kind} config={current} lang={lang} hospitalId={hospitalId} />
        )}
      </Suspense>
      {current && !WITH_CONTENT.includes(current.kind) && (
        <RegisteredHome key={current.kind} config={current} lang={lang} hospitalId={hospitalId} />
      )}
    </Stack>
  );
}
