import { describe, expect, it } from 'vitest';
import { DASHBOARDS, dashboardEndpoint, dashboardsForUser, homeDashboard } from './dashboards.js';

const user = (...codes: string[]) => ({ active_roles: codes.map((role_code) => ({ role_code })) });

describe('DASHBOARDS (§6 table)', () => {
  it('configures the doctor / midwife dashboard', () => {
    const d = DASHBOARDS.doctor;
    expect(d.component).toBe('DoctorDashboard');
    expect(d.title).toEqual({ fr: 'Mes patients du jour', en: 'My Patients Today' });
    expect(d.allowedTabs).toEqual(['my-queue', 'completed', 'schedule']);
    expect(d.primaryAction).toEqual({
      fr: 'Démarrer la prochaine consultation',
      en: 'Start Next Consultation',
    });
    expect(d.refreshInterval).toBe(30000);
    expect(d.apiEndpoints).toEqual(['/api/doctors/{id}/execution-queue/', '/api/doctors/{id}/workload/']);
  });

  it('configures the secretary / queue manager dashboard', () => {
    const d = DASHBOARDS.secretary;
    expect(d.component).toBe('SecretaryDashboard');
    expect(d.title).toEqual({ fr: 'Affectation des patients', en: 'Patient Assignment' });
    expect(d.allowedTabs).toEqual(['unassigned', 'doctor-workloads', 'departments']);
    expect(d.primaryAction).toEqual({ fr: 'Affecter un patient', en: 'Assign Patient' });
    expect(d.refreshInterval).toBe(15000);
    expect(d.apiEndpoints).toEqual([
      '/api/assign-patient/',
      '/api/departments/{id}/execution-queue/',
      '/api/admissions/',
    ]);
  });

  it('configures the nurse dashboard', () => {
    const d = DASHBOARDS.nurse;
    expect(d.component).toBe('NurseDashboard');
    expect(d.title).toEqual({ fr: "Vue d'ensemble du service", en: 'Unit Overview' });
    expect(d.allowedTabs).toEqual(['my-patients', 'tasks', 'handoffs']);
    expect(d.primaryAction).toBeNull();
    expect(d.refreshInterval).toBe(60000);
    expect(d.apiEndpoints).toEqual(['/api/nurses/{id}/patients/', '/api/nurses/{id}/tasks/']);
  });

  it('configures the admin dashboard', () => {
    const d = DASHBOARDS.admin;
    expect(d.component).toBe('AdminDashboard');
    expect(d.title).toEqual({ fr: "Vue d'ensemble de l'hôpital", en: 'Hospital Overview' });
    expect(d.allowedTabs).toEqual([
      'dashboard',
      'waiting',
      'outpatient',
      'inpatient',
      'discharged',
      'analytics',
    ]);
    expect(d.primaryAction).toBeNull();
    expect(d.refreshInterval).toBe(120000);
    expect(d.apiEndpoints).toEqual(['/api/dashboard/', '/api/stats/']);
  });

  it('gives every dashboard its own kind, subtitles and features', () => {
    for (const [kind, d] of Object.entries(DASHBOARDS)) {
      expect(d.kind).toBe(kind);
      expect(d.subtitle.fr).not.toBe('');
      expect(d.subtitle.en).not.toBe('');
      expect(d.features.length).toBeGreaterThan(0);
    }
  });
});

describe('dashboardsForUser', () => {
  it.each([
    [['DOCTOR'], ['DoctorDashboard']],
    [['SAGE_FEMME'], ['DoctorDashboard']],
    [['HEAD_DOCTOR'], ['DoctorDashboard', 'AdminDashboard']],
    [['SECRETARY'], ['SecretaryDashboard']],
    [['QUEUE_MANAGER'], ['SecretaryDashboard']],
    [['CHARGE_NURSE'], ['SecretaryDashboard']],
    [['NURSE'], ['NurseDashboard']],
    [['HOSPITAL_ADMIN'], ['AdminDashboard']],
    [['LAB_TECH'], ['DoctorDashboard']],
    [
      ['ADMIN', 'NURSE'],
      ['NurseDashboard', 'AdminDashboard'],
    ],
  ])('%j → %j', (codes, components) => {
    expect(dashboardsForUser(user(...codes)).map((d) => d.component)).toEqual(components);
  });

  it('gives the admin dashboard without a user', () => {
    expect(dashboardsForUser(null)).toEqual([DASHBOARDS.admin]);
  });
});

describe('dashboardEndpoint', () => {
  it('fills in the id', () => {
    expect(dashboardEndpoint('/api/doctors/{id}/workload/', 'a1b2')).toBe('/api/doctors/a1b2/workload/');
    expect(dashboardEndpoint('/api/nurses/{id}/tasks/', 7)).toBe('/api/nurses/7/tasks/');
    expect(dashboardEndpoint('/api/nurses/{id}/tasks/', 'a/b')).toBe('/api/nurses/a%2Fb/tasks/');
  });
});

describe('the pharmacist and cashier home screens (decision 0070)', () => {
  it('configures the pharmacist home: dispensing queue, stock alerts, expiries', () => {
    const d = DASHBOARDS.pharmacist;
    expect(d.title).toEqual({ fr: 'Pharmacie du jour', en: "Today's Pharmacy" });
    expect(d.allowedTabs).toEqual(['to-dispense', 'stock-alerts', 'expiries']);
    expect(d.primaryAction).toBeNull();
    expect(d.apiEndpoints).toEqual(['/api/prescriptions/', '/api/pharmacy/alerts/']);
  });

  it('configures the cashier home: invoices waiting and the cash session', () => {
    const d = DASHBOARDS.cashier;
    expect(d.title).toEqual({ fr: 'Caisse du jour', en: "Today's Cash Desk" });
    expect(d.allowedTabs).toEqual(['invoices-waiting', 'cash-session']);
    expect(d.apiEndpoints).toEqual(['/api/invoices/', '/api/cash-sessions/']);
  });

  it('gives each of them their own home, never a doctor dashboard', () => {
    expect(dashboardsForUser(user('PHARMACIST')).map((d) => d.kind)).toEqual(['pharmacist']);
    expect(dashboardsForUser(user('CASHIER')).map((d) => d.kind)).toEqual(['cashier']);
  });
});

describe('homeDashboard (issue 37)', () => {
  it('starts the head doctor on the hospital overview', () => {
    expect(homeDashboard(dashboardsForUser(user('HEAD_DOCTOR')))?.kind).toBe('admin');
  });

  it('starts everyone else on their first dashboard', () => {
    expect(homeDashboard(dashboardsForUser(user('DOCTOR')))?.kind).toBe('doctor');
    expect(homeDashboard(dashboardsForUser(user('NURSE', 'PHARMACIST')))?.kind).toBe('nurse');
    expect(homeDashboard(dashboardsForUser(user('CASHIER')))?.kind).toBe('cashier');
    expect(homeDashboard([])).toBeUndefined();
  });
});
