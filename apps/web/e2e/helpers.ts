import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo-Greensen-2026';

/** Signs in through the login page (French or English) and waits for the dashboard. */
export async function signIn(page: Page, email: string, lang: 'fr' | 'en' = 'fr') {
  await page.goto(lang === 'en' ? '/en/login' : '/login');
  await page.getByLabel(lang === 'en' ? 'Email address' : 'Adresse e-mail').fill(email);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: lang === 'en' ? 'Sign in' : 'Se connecter' }).click();
  // The navigation waits for the sign-in answer and the dashboard's chunks: on the 2-core CI machine running the
  // server suite beside this one, that once passed the default 10 s (issue 37's axe test). Room, not a speed check.
  await expect(page).toHaveURL(lang === 'en' ? /\/en\/?$/ : /:\d+\/$/, { timeout: 30_000 });
}

export async function signOut(page: Page, lang: 'fr' | 'en' = 'fr') {
  await page.getByRole('button', { name: lang === 'en' ? 'User menu' : 'Menu utilisateur' }).click();
  await page.getByRole('menuitem', { name: lang === 'en' ? 'Sign out' : 'Se déconnecter' }).click();
  await expect(page).toHaveURL(lang === 'en' ? /\/en\/login$/ : /\/login$/, { timeout: 30_000 });
}

/** Calls the API as a demo user in HGG (the hospital every demo account used here belongs to). */
export async function apiAs(request: APIRequestContext, email: string) {
  const login = await request.post('/api/login/', { data: { email, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const body = await login.json();
  const hgg = body.user.hospitals.find((h: { code: string }) => h.code === 'HGG');
  const headers = { authorization: `Bearer ${body.access}`, 'hospital-id': hgg.id };
  const ok = async (path: string, res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
    return res;
  };
  return {
    user: body.user as { id: string },
    get: async (path: string) => (await ok(path, await request.get(`/api/${path}`, { headers }))).json(),
    bytes: async (path: string) => (await ok(path, await request.get(`/api/${path}`, { headers }))).body(),
    post: async (path: string, data: object = {}) =>
      (await ok(path, await request.post(`/api/${path}`, { headers, data }))).json(),
  };
}

export type Api = Awaited<ReturnType<typeof apiAs>>;

/** A prescription line of the e2e patients: the tablet of a medicine (by ATC code) at a given strength. */
export interface TabletLine {
  atc: string;
  strength: string;
  dose: number;
  frequency: { kind: string; [k: string]: unknown };
  duration_days?: number | null;
}

/**
 * A patient of their own for a spec that must not depend on the demo's (or on another spec's use of them):
 * admitted at Urgences by secretaire@, assigned to medecin@ by file@, seen in consultation, with the orders
 * written there (`prescribe`); `hospitalize` then gives the stay at Urgences, a bed in a new unit of Urgences
 * (infirmier@'s ward) and infirmier@'s care plan.
 */
export async function urgencesPatient(
  request: APIRequestContext,
  patient: {
    first_name: string;
    last_name: string;
    sex: 'F' | 'M';
    birth_date: string;
    allergies?: string[];
  },
  reason: string,
) {
  const desk = await apiAs(request, 'secretaire@greensen.test');
  const queue = await apiAs(request, 'file@greensen.test');
  const doctor = await apiAs(request, 'medecin@greensen.test');
  const urgences = (await desk.get('departments/?page_size=100')).results.find(
    (d: { name: string }) => d.name === 'Urgences',
  ).id as string;
  const created = await desk.post('patients/', { ...patient, confirm_duplicate: true });
  const admission = await desk.post('admissions/', {
    patient: created.id,
    department: urgences,
    admission_type: 'emergency',
    reason,
  });
  await queue.post('assign-patient/', { admission: admission.id, doctor: doctor.user.id });
  const consultation = await doctor.post(`admissions/${admission.id}/start-consultation/`);

  /** A prescription of the consultation, signed by medecin@. */
  const prescribe = async (lines: TabletLine[]) => {
    const rxLines = [];
    for (const l of lines) {
      const meds = await doctor.get(`medications/?atc=${l.atc}&page_size=5`);
      const tablet = meds.results[0].presentations.find(
        (p: { form: string; strength: string; paediatric: boolean }) =>
          p.form === 'tablet' && p.strength === l.strength && !p.paediatric,
      ).id as string;
      rxLines.push({
        presentation: tablet,
        dose: l.dose,
        dose_unit: 'comprimé',
        route: 'oral',
        frequency: l.frequency,
        duration_days: l.duration_days ?? null,
      });
    }
    const rx = await doctor.post('prescriptions/', {
      patient: created.id,
      consultation: consultation.id,
      lines: rxLines,
    });
    return doctor.post(`prescriptions/${rx.id}/sign/`, { version: rx.version });
  };

  /** The stay at Urgences (with its provisional diagnosis), a bed in a new unit, infirmier@'s care plan. */
  const hospitalize = async (stayReason: string, icd: string) => {
    const admin = await apiAs(request, 'admin@greensen.test');
    const nurse = await apiAs(request, 'infirmier@greensen.test');
    const suffix = Math.random().toString(36).slice(2, 8);
    const stay = await doctor.post('hospitalizations/', {
      admission: admission.id,
      department: urgences,
      reason: stayReason,
      provisional_icd_code: icd,
    });
    const ward = await admin.post('wards/', {
      department: urgences,
      name: `UHCD ${suffix}`,
      code: `E2E-${suffix}`,
    });
    const room = await admin.post(`wards/${ward.id}/rooms/`, { name: suffix, beds: ['A'] });
    await nurse.post(`hospitalizations/${stay.id}/bed/`, { bed: room.room_list[0].beds[0].id });
    const plan = await nurse.post('care/plans/', { hospitalization: stay.id });
    return { stay, plan, nurse, admin };
  };

  return { patient: created, admission, consultation, doctor, urgences, prescribe, hospitalize };
}
