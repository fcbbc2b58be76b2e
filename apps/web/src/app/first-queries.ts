/**
 * The first queries of the pages started by path as the app starts (app/page-prefetch.ts, issue 38). This module
 * is part of the signed-in shell's chunk (build/first-screen-chunks.ts), which public/boot.js preloads for a
 * signed-in user beside the entry: the start asks for it without a round trip of its own.
 */
import type { DashboardKind } from '@greensen/shared/domain/roles';
import { calendarFirstQueries } from '../features/appointments/pages/calendar-first';
import { billingFirstQueries } from '../features/billing/pages/billing-first';
import { doctorHomeFirstQueries } from '../features/dashboard/api/doctor-first';
import { adminHomeFirstQueries } from '../features/dashboard/api/overview';
import { documentsFirstQueries } from '../features/documents/pages/documents-first';
import { hospitalizationsFirstQueries } from '../features/hospitalizations/pages/hospitalizations-first';
import { pharmacistHomeFirstQueries } from '../features/pharmacy/components/pharmacist-first';
import { medicationsFirstQueries } from '../features/pharmacy/pages/medications-first';
import type { AppConfig } from '../lib/app-config';
import type { FirstQueries } from '../lib/first-data';
import type { User } from '../stores/user';
import { moduleRedirect } from './guards/ModuleGuard';

/** By path (without the /en prefix). */
export const FIRST_BY_PATH: Readonly<Record<string, FirstQueries>> = {
  '/medications': medicationsFirstQueries,
  '/documents': documentsFirstQueries,
  '/billing': billingFirstQueries,
  '/hospitalizations': hospitalizationsFirstQueries,
  '/calendar': calendarFirstQueries,
};

/** The home page, by the dashboard it opens on. */
export const FIRST_BY_HOME: Partial<Readonly<Record<DashboardKind, FirstQueries>>> = {
  admin: adminHomeFirstQueries,
  doctor: doctorHomeFirstQueries,
  pharmacist: pharmacistHomeFirstQueries,
};

/**
 * Whether the module guard lets the user open `path` (ModuleGuard's own rule): a refused page never asks for its
 * data, and a refusal from the API would show its notice and leave the page.
 */
export function guardAllows(
  path: string,
  config: AppConfig,
  user: User | null,
  hospitalId: string | null,
): boolean {
  return (
    moduleRedirect({
      pathname: path,
      environment: config.environment,
      extraModules: config.extra_modules,
      user,
      hospitalId,
      lang: 'fr',
    }) === null
  );
}
