import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENVIRONMENT,
  isAppEnvironment,
  isDashboardPath,
  isModuleEnabled,
  MODULE_NAMES,
  MODULES,
  MODULES_BY_ENVIRONMENT,
  moduleByName,
  moduleForPath,
  modulesForEnvironment,
  normalizeAppPath,
  parseModuleList,
} from './modules.js';

describe('MODULES (§2 table)', () => {
  it('lists the 18 modules in the order of the table with their paths and French titles', () => {
    expect(MODULES.map((m) => [m.name, m.path, m.title.fr])).toEqual([
      ['dashboard', '/', 'Tableau de bord'],
      ['patients', '/patients', 'Patients'],
      ['admissions', '/admissions', 'Admissions'],
      ['consultations', '/consultations', 'Consultations'],
      ['exams', '/exams', 'Examens'],
      ['analytics', '/analytics', 'Reporting'],
      ['doctors', '/doctors', 'Prestataires'],
      ['triage', '/triage', 'Triage'],
      ['hospitalizations', '/hospitalizations', 'Hospitalisations'],
      ['care', '/care', 'Soins'],
      ['medical_acts', '/medical-acts', 'Actes médicaux'],
      ['billing', '/billing', 'Facturation'],
      ['hospitals', '/hospitals', 'Hôpitaux'],
      ['pharmacy', '/pharmacy', 'Pharmacie'],
      ['appointments', '/appointments', 'Rendez-vous'],
      ['admin', '/admin', 'Administration'],
      ['templates', '/templates', 'Modèles'],
      ['chat', '/chat', 'Messagerie'],
    ]);
  });

  it('has English titles', () => {
    expect(MODULES.map((m) => m.title.en)).toEqual([
      'Dashboard',
      'Patients',
      'Admissions',
      'Consultations',
      'Exams',
      'Reporting',
      'Providers',
      'Triage',
      'Hospitalizations',
      'Care',
      'Medical acts',
      'Billing',
      'Hospitals',
      'Pharmacy',
      'Appointments',
      'Administration',
      'Templates',
      'Messaging',
    ]);
  });

  it('gives every module a Tabler icon and a description in both languages', () => {
    for (const m of MODULES) {
      expect(m.icon).toMatch(/^Icon[A-Z][A-Za-z0-9]+$/);
      expect(m.description.fr).toMatch(/\.$/);
      expect(m.description.en).toMatch(/\.$/);
    }
    expect(new Set(MODULES.map((m) => m.name)).size).toBe(18);
    expect(new Set(MODULES.map((m) => m.path)).size).toBe(18);
  });

  it('finds a module by name', () => {
    expect(moduleByName('medical_acts').path).toBe('/medical-acts');
    expect(moduleByName('nope')).toBeUndefined();
  });
});

describe('modules per environment (§5)', () => {
  it('defaults to development', () => {
    expect(DEFAULT_ENVIRONMENT).toBe('development');
  });

  it('enables all 18 modules in development', () => {
    expect(MODULES_BY_ENVIRONMENT.development).toHaveLength(18);
    expect(modulesForEnvironment('development').map((m) => m.name)).toEqual(MODULES.map((m) => m.name));
  });

  it('enables exactly 7 modules in test', () => {
    expect([...MODULES_BY_ENVIRONMENT.test].sort()).toEqual(
      ['dashboard', 'patients', 'admissions', 'consultations', 'exams', 'templates', 'analytics'].sort(),
    );
    expect(modulesForEnvironment('test').map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'admissions',
      'consultations',
      'exams',
      'analytics',
      'templates',
    ]);
  });

  it('enables exactly 6 modules in production', () => {
    expect([...MODULES_BY_ENVIRONMENT.production].sort()).toEqual(
      ['dashboard', 'patients', 'admissions', 'consultations', 'exams', 'templates'].sort(),
    );
    expect(modulesForEnvironment('production')).toHaveLength(6);
    expect(isModuleEnabled('analytics', 'production')).toBe(false);
    expect(isModuleEnabled('analytics', 'test')).toBe(true);
    expect(isModuleEnabled('chat', 'test')).toBe(false);
  });

  it("adds an installation's extra modules to the environment's set, which stays as the specification says", () => {
    expect(isModuleEnabled('admin', 'production', ['admin', 'hospitals'])).toBe(true);
    expect(isModuleEnabled('billing', 'production', ['admin', 'hospitals'])).toBe(false);
    expect(modulesForEnvironment('production', ['hospitals', 'admin']).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'admissions',
      'consultations',
      'exams',
      'hospitals',
      'admin',
      'templates',
    ]);
    expect(MODULES_BY_ENVIRONMENT.production).toHaveLength(6);
  });

  it('reads a list of module names, once each in navigation order, and names the unknown ones', () => {
    expect(parseModuleList(' admin, hospitals admin ')).toEqual({
      modules: ['hospitals', 'admin'],
      unknown: [],
    });
    expect(parseModuleList('admin,billingg,')).toEqual({ modules: ['admin'], unknown: ['billingg'] });
    expect(parseModuleList('')).toEqual({ modules: [], unknown: [] });
    expect(parseModuleList('all')).toEqual({ modules: [...MODULE_NAMES], unknown: [] });
    expect(parseModuleList('all, billingg')).toEqual({ modules: [...MODULE_NAMES], unknown: ['billingg'] });
  });

  it('recognises environment names', () => {
    expect(isAppEnvironment('production')).toBe(true);
    expect(isAppEnvironment('staging')).toBe(false);
    expect(isAppEnvironment(undefined)).toBe(false);
  });
});

describe('normalizeAppPath', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['/en', '/'],
    ['/en/', '/'],
    ['/en/patients/12/', '/patients/12'],
    ['/english', '/english'],
    ['patients', '/patients'],
    ['/patients?page=2#top', '/patients'],
    ['https://greensen.example/en/exams/3?x=1', '/exams/3'],
    ['//patients//12', '/patients/12'],
  ])('%s → %s', (input, output) => {
    expect(normalizeAppPath(input)).toBe(output);
  });
});

describe('moduleForPath (longest prefix on segment boundaries)', () => {
  it.each([
    ['/', 'dashboard'],
    ['', 'dashboard'],
    ['/dashboard', 'dashboard'],
    ['/dashboard/', 'dashboard'],
    ['/en', 'dashboard'],
    ['/en/dashboard', 'dashboard'],
    ['/patients', 'patients'],
    ['/patients/', 'patients'],
    ['/patients/123', 'patients'],
    ['/en/patients/123', 'patients'],
    ['/patients?search=dupont', 'patients'],
    ['/admissions/42', 'admissions'],
    ['/consultations/create', 'consultations'],
    ['/consultations/diagnosis/7', 'consultations'],
    ['/exams/create', 'exams'],
    ['/analytics', 'analytics'],
    ['/doctors/5', 'doctors'],
    ['/triage/9', 'triage'],
    ['/hospitalizations/3', 'hospitalizations'],
    ['/care/1', 'care'],
    ['/medical-acts/4', 'medical_acts'],
    ['/billing', 'billing'],
    ['/hospitals', 'hospitals'],
    ['/pharmacy/medications/8', 'pharmacy'],
    ['/pharmacy/prescriptions/8', 'pharmacy'],
    ['/appointments/2', 'appointments'],
    ['/admin', 'admin'],
    ['/admin/staff/6', 'admin'],
    ['/admin/templates', 'admin'],
    ['/en/admin/templates', 'admin'],
    ['/templates/11', 'templates'],
    ['/chat', 'chat'],
  ])('%s → %s', (path, name) => {
    expect(moduleForPath(path)?.name).toBe(name);
  });

  it.each([
    '/patientsX',
    '/patients-archive',
    '/admins',
    '/hospital',
    '/dashboards',
    '/settings',
    '/profile',
    '/notes',
    '/calendar',
    '/dictation',
    '/documents',
    '/medications',
    '/transfers',
    '/error-404',
    '/en/settings',
    '/english/patients',
  ])('%s → null', (path) => {
    expect(moduleForPath(path)).toBeNull();
  });

  it('recognises the home page', () => {
    expect(isDashboardPath('/en/')).toBe(true);
    expect(isDashboardPath('/dashboard/x')).toBe(true);
    expect(isDashboardPath('/dashboardx')).toBe(false);
    expect(isDashboardPath('/patients')).toBe(false);
  });
});
