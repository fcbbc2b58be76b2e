/**
 * The one route table (DESIGN §6): built once per language and mounted for French without prefix
 * and for English under /en. Every page is lazy-loaded; guards are layout routes in the order
 * maintenance → authentication → module access (inside the app layout).
 */
import type { RouteObject } from 'react-router';
import { withChunkReload } from '../lib/chunk-reload';
import { loadAllNamespaces } from '../lib/i18n';
import { AuthGuard } from './guards/AuthGuard';
import { GuestGuard } from './guards/GuestGuard';
import { MaintenanceGuard } from './guards/MaintenanceGuard';
import { AuthLayout } from './layout/AuthLayout';
import { RootLayout } from './layout/RootLayout';
import { type PageLoader, pageLoaders, withRestStyles } from './page-loaders';
import { NotFoundRoute, RouteErrorBoundary } from './RouteErrorBoundary';
import type { RouteHandle } from './route-handle';
import { loadShell } from './shell-loader';
import './home-screens';

/** A lazy page; every page but the sign-in form also loads Mantine's stylesheets beyond the sign-in page's. */
function lazyPage(load: PageLoader): RouteObject['lazy'] {
  const guarded = withChunkReload(load === pageLoaders.login ? load : withRestStyles(load));
  return async () => ({ Component: (await guarded()).default });
}

/** The signed-in shell is not part of the sign-in page: it loads with the first signed-in page. */
function lazyShell(): RouteObject['lazy'] {
  return lazyPage(loadShell);
}

/**
 * Signed-in pages beyond the dashboard: each also waits for the strings beyond the first screens' (one chunk
 * per language, fetched once — lib/i18n), which neither the sign-in page nor the dashboard need.
 */
function withStrings(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const children = route.children ? { children: withStrings(route.children) } : {};
    const lazy = route.lazy;
    if (typeof lazy !== 'function') return { ...route, ...children } as RouteObject;
    return {
      ...route,
      ...children,
      lazy: async (...args: Parameters<typeof lazy>) => {
        const [loaded] = await Promise.all([lazy(...args), loadAllNamespaces()]);
        return loaded;
      },
    } as RouteObject;
  });
}

function page(path: string | undefined, load: PageLoader, handle: RouteHandle): RouteObject {
  return path === undefined
    ? { index: true, lazy: lazyPage(load), handle }
    : { path, lazy: lazyPage(load), handle };
}

/** Module routes (spec §2 tables). */
function moduleRoutes(): RouteObject[] {
  return [
    page('patients', pageLoaders.patients, { titleKey: 'patients', module: 'patients', kind: 'list' }),
    page('patients/:id', pageLoaders.patientDetail, {
      titleKey: 'patientDetail',
      module: 'patients',
      kind: 'detail',
    }),
    page('admissions', pageLoaders.admissions, {
      titleKey: 'admissions',
      module: 'admissions',
      kind: 'list',
    }),
    page('admissions/:id', pageLoaders.admissionDetail, {
      titleKey: 'admissionDetail',
      module: 'admissions',
      kind: 'detail',
    }),
    page('consultations', pageLoaders.consultations, {
      titleKey: 'consultations',
      module: 'consultations',
      kind: 'list',
    }),
    page('consultations/create', pageLoaders.consultationCreate, {
      titleKey: 'consultation.create.title',
      module: 'consultations',
      kind: 'create',
    }),
    {
      // The specification's `consultation-access` middleware: loads the record, 403 → refusal, 404 → error page.
      lazy: lazyPage(pageLoaders.consultationAccess),
      children: [
        page('consultations/diagnosis/:id', pageLoaders.consultationDiagnosis, {
          titleKey: 'consultationDiagnosis',
          module: 'consultations',
          kind: 'detail',
        }),
        page('consultations/:id', pageLoaders.consultationDetail, {
          titleKey: 'consultation.detail',
          module: 'consultations',
          kind: 'detail',
        }),
      ],
    },
    page('exams', pageLoaders.exams, { titleKey: 'exams', module: 'exams', kind: 'list' }),
    page('exams/create', pageLoaders.examCreate, {
      titleKey: 'examCreate.title',
      module: 'exams',
      kind: 'create',
    }),
    page('exams/:id', pageLoaders.examDetail, { titleKey: 'examDetail', module: 'exams', kind: 'detail' }),
    page('analytics', pageLoaders.analytics, { titleKey: 'analytics', module: 'analytics', kind: 'list' }),
    // The printable monthly and weekly IDSR reports (decision 0039), inside the analytics module's path.
    page('analytics/report/:kind', pageLoaders.analyticsReport, {
      titleKey: 'analyticsReport',
      module: 'analytics',
      kind: 'detail',
    }),
    page('doctors', pageLoaders.doctors, { titleKey: 'doctors', module: 'doctors', kind: 'list' }),
    page('doctors/:id', pageLoaders.doctorDetail, {
      titleKey: 'doctorDetail',
      module: 'doctors',
      kind: 'detail',
    }),
    page('triage', pageLoaders.triage, { titleKey: 'triage', module: 'triage', kind: 'list' }),
    page('triage/:id', pageLoaders.triageDetail, {
      titleKey: 'triageDetail',
      module: 'triage',
      kind: 'detail',
    }),
    page('hospitalizations', pageLoaders.hospitalizations, {
      titleKey: 'hospitalizations',
      module: 'hospitalizations',
      kind: 'list',
    }),
    page('hospitalizations/:id', pageLoaders.hospitalizationDetail, {
      titleKey: 'hospitalizationDetail',
      module: 'hospitalizations',
      kind: 'detail',
    }),
    page('care', pageLoaders.care, { titleKey: 'care', module: 'care', kind: 'list' }),
    page('care/:id', pageLoaders.careDetail, { titleKey: 'careDetail', module: 'care', kind: 'detail' }),
    page('medical-acts', pageLoaders.medicalActs, {
      titleKey: 'medicalActs',
      module: 'medical_acts',
      kind: 'list',
    }),
    page('medical-acts/:id', pageLoaders.medicalActDetail, {
      titleKey: 'medicalActDetail',
      module: 'medical_acts',
      kind: 'detail',
    }),
    page('billing', pageLoaders.billing, { titleKey: 'billing', module: 'billing', kind: 'list' }),
    page('billing/invoices/:id', pageLoaders.invoiceDetail, {
      titleKey: 'invoiceDetail',
      module: 'billing',
      kind: 'detail',
    }),
    page('billing/receipts/:id', pageLoaders.receipt, {
      titleKey: 'receipt',
      module: 'billing',
      kind: 'detail',
    }),
    page('hospitals', pageLoaders.hospitals, { titleKey: 'hospitals', module: 'hospitals', kind: 'list' }),
    page('pharmacy', pageLoaders.pharmacy, { titleKey: 'pharmacy', module: 'pharmacy', kind: 'list' }),
    page('pharmacy/medications/:id', pageLoaders.pharmacyMedication, {
      titleKey: 'pharmacyMedication',
      module: 'pharmacy',
      kind: 'detail',
    }),
    page('pharmacy/prescriptions/:id', pageLoaders.pharmacyPrescription, {
      titleKey: 'pharmacyPrescription',
      module: 'pharmacy',
      kind: 'detail',
    }),
    page('appointments', pageLoaders.appointments, {
      titleKey: 'appointments',
      module: 'appointments',
      kind: 'list',
    }),
    page('appointments/:id', pageLoaders.appointmentDetail, {
      titleKey: 'appointmentDetail',
      module: 'appointments',
      kind: 'detail',
    }),
    page('admin', pageLoaders.admin, { titleKey: 'admin', module: 'admin' }),
    page('admin/jobs', pageLoaders.adminJobs, { titleKey: 'jobs:title', module: 'admin', kind: 'list' }),
    page('admin/staff/:id', pageLoaders.adminStaff, {
      titleKey: 'adminStaff',
      module: 'admin',
      kind: 'detail',
    }),
    page('admin/templates', pageLoaders.adminTemplates, { titleKey: 'adminTemplates', module: 'admin' }),
    page('templates', pageLoaders.templates, { titleKey: 'templates', module: 'templates', kind: 'list' }),
    page('templates/:id', pageLoaders.templateDetail, {
      titleKey: 'templateDetail',
      module: 'templates',
      kind: 'detail',
    }),
    page('chat', pageLoaders.chat, { titleKey: 'chat', module: 'chat', kind: 'list' }),
  ];
}

/** Routes outside the module table (no module check). */
function otherRoutes(): RouteObject[] {
  return [
    page('settings', pageLoaders.settings, { titleKey: 'settings' }),
    page('profile', pageLoaders.profile, { titleKey: 'profile' }),
    page('error-404', pageLoaders.notFound, { titleKey: 'error404' }),
    page('calendar', pageLoaders.calendar, { titleKey: 'calendar' }),
    page('notes', pageLoaders.notes, { titleKey: 'notes', kind: 'list' }),
    page('dictation', pageLoaders.dictation, { titleKey: 'dictation', kind: 'list' }),
    page('documents', pageLoaders.documents, { titleKey: 'documents', kind: 'list' }),
    // The medication reference (spec §2): outside the module table, like the other top-level routes.
    page('medications', pageLoaders.medications, { titleKey: 'medications', kind: 'list' }),
    // The list route of transfers (spec §2): outside the module table, like the other top-level routes.
    page('transfers', pageLoaders.transfers, { titleKey: 'transfers', kind: 'list' }),
  ];
}

/** The route table, relative to a language root. */
export function appRouteChildren(): RouteObject[] {
  return [
    page('maintenance', pageLoaders.maintenance, { titleKey: 'maintenance' }),
    {
      element: <MaintenanceGuard />,
      children: [
        {
          element: <GuestGuard />,
          children: [
            {
              element: <AuthLayout />,
              children: [
                page('login', pageLoaders.login, { titleKey: 'login' }),
                page('register', pageLoaders.register, { titleKey: 'register' }),
                page('forgot-password', pageLoaders.forgotPassword, { titleKey: 'forgotPassword' }),
                page('reset-password/:token', pageLoaders.resetPassword, { titleKey: 'resetPassword' }),
                page('verify-email/:uid/:token', pageLoaders.verifyEmail, { titleKey: 'verifyEmail' }),
              ],
            },
          ],
        },
        {
          // A document's verification page (issue 19): what the QR code opens, signed in or not.
          element: <AuthLayout />,
          children: [
            page('verify/:token', pageLoaders.verifyDocument, { titleKey: 'verifyDocument' }),
            // A hospital's invitation (issue 36): accepted by its recipient, signed in or not.
            page('invitation/:token', pageLoaders.acceptInvitation, { titleKey: 'acceptInvitation' }),
          ],
        },
        {
          element: <AuthGuard />,
          children: [
            {
              element: <AuthLayout />,
              children: [
                page('pin-verify', pageLoaders.pinVerify, { titleKey: 'pinVerify' }),
                page('pin-setup', pageLoaders.pinSetup, { titleKey: 'pinSetup' }),
              ],
            },
            {
              lazy: lazyShell(),
              children: [
                {
                  errorElement: <RouteErrorBoundary inShell />,
                  children: [
                    page(undefined, pageLoaders.dashboard, { titleKey: 'dashboard', module: 'dashboard' }),
                    page('dashboard', pageLoaders.dashboard, { titleKey: 'dashboard', module: 'dashboard' }),
                    ...withStrings([...otherRoutes(), ...moduleRoutes()]),
                  ],
                },
              ],
            },
            // An unknown path: the not-found page when signed in; to /login otherwise, like every path but
            // the sign-in pages (spec §5).
            { path: '*', element: <NotFoundRoute /> },
          ],
        },
      ],
    },
  ];
}

/**
 * What the router shows while the first page's lazy routes load (main.tsx renders once their chunks are in, so
 * this lasts a few microtasks): nothing, as without it — named, so that React Router does not warn of a missing
 * `HydrateFallback` in every browser's console on every cold load.
 */
function NothingYet() {
  return null;
}

/** Both mounts: French at the root, English under /en. */
export function appRoutes(): RouteObject[] {
  return [
    {
      id: 'en',
      path: '/en',
      element: <RootLayout lang="en" />,
      errorElement: <RouteErrorBoundary />,
      HydrateFallback: NothingYet,
      children: appRouteChildren(),
    },
    {
      id: 'fr',
      path: '/',
      element: <RootLayout lang="fr" />,
      errorElement: <RouteErrorBoundary />,
      HydrateFallback: NothingYet,
      children: appRouteChildren(),
    },
  ];
}
