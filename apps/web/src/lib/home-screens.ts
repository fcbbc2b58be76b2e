/**
 * The home screens of the roles beside the specification's four dashboards (decision 0070): the pharmacist's and
 * the cashier's. Their tabs show the pharmacy's and the cash desk's own components, which belong to those features;
 * the app shell registers them here (app/home-screens.ts), so that the dashboard page shows them without importing
 * another feature (DESIGN §3).
 */
import type { DashboardKind } from '@greensen/shared/domain/roles';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect } from 'react';
import { lazyComponent } from './lazy-component';
import { registerInterval } from './timers';

/** A home screen renders one tab of its dashboard at a time. */
export interface HomeTabProps {
  tab: string;
  /** The dashboard's refresh period (the queries of the tab are refreshed that often). */
  refreshInterval: number;
}

type HomeTab = ComponentType<HomeTabProps>;
const screens = new Map<DashboardKind, HomeTab>();

/**
 * Registers the component of a dashboard kind's tabs (its own chunk: loaded on first use, or by path as the app starts
 * with the same `load`, app/page-prefetch.ts).
 */
export function registerHomeScreen(
  kind: DashboardKind,
  load: () => Promise<{ default: ComponentType<HomeTabProps> }>,
): void {
  screens.set(kind, lazyComponent(load));
}

/** The registered tabs' component of a dashboard kind, or null. */
export function homeScreen(kind: DashboardKind): HomeTab | null {
  return screens.get(kind) ?? null;
}

/** Refreshes the queries under `keys` every `ms` while the tab is shown (stopped by logout as every timer). */
export function useHomeRefresh(name: string, keys: readonly QueryKey[], ms: number): void {
  const queryClient = useQueryClient();
  // The keys are constants of the feature's api/ files: their joined text names them.
  const signature = JSON.stringify(keys);
  useEffect(
    () =>
      registerInterval(
        `home:${name}`,
        () => {
          for (const queryKey of JSON.parse(signature) as QueryKey[])
            void queryClient.invalidateQueries({ queryKey });
        },
        ms,
      ),
    [name, signature, ms, queryClient],
  );
}
