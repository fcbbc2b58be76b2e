import { describe, expect, it } from 'vitest';
import {
  type DashboardGroup,
  dashboardGroupsOf,
  humanizeRoleCode,
  isPractitioner,
  knownRoleCode,
  ROLE_CODES,
  ROLE_LABELS,
  roleGroup,
  roleLabel,
  titlePrefix,
  userDashboardGroup,
  userRoleGroups,
} from './roles.js';

const user = (...codes: string[]) => ({ active_roles: codes.map((role_code) => ({ role_code })) });

describe('ROLE_CODES', () => {
  it('lists exactly the 14 codes of the specification table and the two of decision 0070', () => {
    expect([...ROLE_CODES].sort()).toEqual(
      [
        'HEAD_DOCTOR',
        'DOCTOR',
        'PHYSICIAN',
        'MD',
        'SAGE_FEMME',
        'SECRETARY',
        'ADMIN_ASSISTANT',
        'RECEPTIONIST',
        'QUEUE_MANAGER',
        'CHARGE_NURSE',
        'NURSE',
        'ADMIN',
        'ADMINISTRATOR',
        'HOSPITAL_ADMIN',
        'PHARMACIST',
        'CASHIER',
      ].sort(),
    );
  });
});

describe('roleGroup (§6 table)', () => {
  const rows: [string, DashboardGroup][] = [
    ['HEAD_DOCTOR', 'head_doctor'],
    ['DOCTOR', 'doctor'],
    ['PHYSICIAN', 'doctor'],
    ['MD', 'doctor'],
    ['SAGE_FEMME', 'midwife'],
    ['SECRETARY', 'secretary'],
    ['ADMIN_ASSISTANT', 'secretary'],
    ['RECEPTIONIST', 'secretary'],
    ['QUEUE_MANAGER', 'queue_manager'],
    ['CHARGE_NURSE', 'queue_manager'],
    ['NURSE', 'nurse'],
    ['ADMIN', 'admin'],
    ['ADMINISTRATOR', 'admin'],
    ['HOSPITAL_ADMIN', 'admin'],
    // Decision 0070: groups of their own, not the unknown code's doctor.
    ['PHARMACIST', 'pharmacist'],
    ['CASHIER', 'cashier'],
  ];
  it.each(rows)('%s → %s', (code, group) => {
    expect(roleGroup(code)).toBe(group);
  });

  it('covers every known code', () => {
    expect(rows.map(([code]) => code).sort()).toEqual([...ROLE_CODES].sort());
  });

  it('is case-insensitive and ignores surrounding spaces', () => {
    expect(roleGroup('sage_femme')).toBe('midwife');
    expect(roleGroup('Nurse')).toBe('nurse');
    expect(roleGroup(' hospital_admin ')).toBe('admin');
  });

  it('maps an unknown code to doctor', () => {
    expect(roleGroup('LAB_TECH')).toBe('doctor');
    expect(roleGroup('')).toBe('doctor');
    expect(roleGroup('toString')).toBe('doctor');
  });
});

describe('knownRoleCode', () => {
  it('returns the canonical code or null', () => {
    expect(knownRoleCode('charge_nurse')).toBe('CHARGE_NURSE');
    expect(knownRoleCode('LAB_TECH')).toBeNull();
    expect(knownRoleCode('constructor')).toBeNull();
  });
});

describe('userDashboardGroup', () => {
  it('uses the first active role', () => {
    expect(userDashboardGroup(user('NURSE', 'DOCTOR'))).toBe('nurse');
    expect(userDashboardGroup(user('SECRETARY'))).toBe('secretary');
    expect(userDashboardGroup(user('queue_manager'))).toBe('queue_manager');
  });
  it('gives admin when there is no user', () => {
    expect(userDashboardGroup(null)).toBe('admin');
    expect(userDashboardGroup(undefined)).toBe('admin');
  });
  it('gives doctor for a user without active roles or with an unknown code', () => {
    expect(userDashboardGroup({})).toBe('doctor');
    expect(userDashboardGroup({ active_roles: [] })).toBe('doctor');
    expect(userDashboardGroup({ active_roles: null })).toBe('doctor');
    expect(userDashboardGroup(user('LAB_TECH', 'ADMIN'))).toBe('doctor');
  });
});

describe('userRoleGroups', () => {
  it('lists the groups of all active roles, deduplicated, in order', () => {
    expect(userRoleGroups(user('SECRETARY', 'DOCTOR', 'RECEPTIONIST', 'MD'))).toEqual([
      'secretary',
      'doctor',
    ]);
  });
  it('gives admin for no user and doctor for no roles', () => {
    expect(userRoleGroups(null)).toEqual(['admin']);
    expect(userRoleGroups({ active_roles: [] })).toEqual(['doctor']);
  });
});

describe('isPractitioner', () => {
  it.each([
    ['doctor', true],
    ['head_doctor', true],
    ['midwife', true],
    ['secretary', false],
    ['queue_manager', false],
    ['nurse', false],
    ['admin', false],
  ] as [DashboardGroup, boolean][])('%s → %s', (group, expected) => {
    expect(isPractitioner(group)).toBe(expected);
  });
});

describe('titlePrefix', () => {
  it.each([
    ['HEAD_DOCTOR', 'Dr.'],
    ['DOCTOR', 'Dr.'],
    ['PHYSICIAN', 'Dr.'],
    ['MD', 'Dr.'],
    ['SAGE_FEMME', 'Mme'],
    ['SECRETARY', ''],
    ['ADMIN_ASSISTANT', ''],
    ['RECEPTIONIST', ''],
    ['QUEUE_MANAGER', ''],
    ['CHARGE_NURSE', ''],
    ['NURSE', ''],
    ['ADMIN', ''],
    ['ADMINISTRATOR', ''],
    ['HOSPITAL_ADMIN', ''],
    ['PHARMACIST', ''],
    ['CASHIER', ''],
    ['LAB_TECH', ''],
  ])('%s → "%s"', (code, prefix) => {
    expect(titlePrefix(code)).toBe(prefix);
  });
  it('is case-insensitive', () => {
    expect(titlePrefix('doctor')).toBe('Dr.');
    expect(titlePrefix('sage_femme')).toBe('Mme');
  });
});

describe('roleLabel', () => {
  it.each([
    ['HEAD_DOCTOR', 'Chef de Service', 'Head of Department'],
    ['DOCTOR', 'Médecin', 'Doctor'],
    ['PHYSICIAN', 'Médecin', 'Physician'],
    ['MD', 'Docteur en médecine', 'Medical Doctor'],
    ['SAGE_FEMME', 'Sage-femme', 'Midwife'],
    ['SECRETARY', 'Secrétaire', 'Secretary'],
    ['ADMIN_ASSISTANT', 'Assistant(e) administratif(ve)', 'Administrative assistant'],
    ['RECEPTIONIST', 'Réceptionniste', 'Receptionist'],
    ['QUEUE_MANAGER', 'Gestionnaire de file', 'Queue manager'],
    ['CHARGE_NURSE', 'Infirmier(ère) chef', 'Charge nurse'],
    ['NURSE', 'Infirmier(ère)', 'Nurse'],
    ['ADMIN', 'Administrateur', 'Administrator'],
    ['ADMINISTRATOR', 'Administrateur', 'Administrator'],
    ['HOSPITAL_ADMIN', "Administrateur de l'hôpital", 'Hospital administrator'],
  ])('%s → %s / %s', (code, fr, en) => {
    expect(roleLabel(code, 'fr')).toBe(fr);
    expect(roleLabel(code, 'en')).toBe(en);
  });

  it('has a French and an English label for every known code', () => {
    for (const code of ROLE_CODES) {
      expect(ROLE_LABELS[code].fr.length).toBeGreaterThan(0);
      expect(ROLE_LABELS[code].en.length).toBeGreaterThan(0);
    }
  });

  it('names the pharmacist and the cashier in both languages (decision 0070)', () => {
    expect(roleLabel('PHARMACIST', 'fr')).toBe('Pharmacien(ne)');
    expect(roleLabel('pharmacist', 'en')).toBe('Pharmacist');
    expect(roleLabel('CASHIER', 'fr')).toBe('Caissier(ère)');
    expect(roleLabel('CASHIER', 'en')).toBe('Cashier');
  });

  it('accepts any case for known codes', () => {
    expect(roleLabel('sage_femme', 'fr')).toBe('Sage-femme');
  });

  it('shows an unknown code in capitalised words, in both languages', () => {
    expect(roleLabel('LAB_TECH', 'fr')).toBe('Lab Tech');
    expect(roleLabel('LAB_TECH', 'en')).toBe('Lab Tech');
    expect(roleLabel('radiology_technician', 'en')).toBe('Radiology Technician');
    expect(roleLabel('LAB_PHARMACIST', 'fr')).toBe('Lab Pharmacist');
    expect(humanizeRoleCode('__BILLING__CLERK')).toBe('Billing Clerk');
    expect(humanizeRoleCode('')).toBe('');
  });
});

describe('dashboardGroupsOf', () => {
  it.each([
    [['DOCTOR'], ['doctor']],
    [['PHYSICIAN'], ['doctor']],
    [['MD'], ['doctor']],
    [['SAGE_FEMME'], ['doctor']],
    [['HEAD_DOCTOR'], ['doctor', 'admin']],
    [['SECRETARY'], ['secretary']],
    [['ADMIN_ASSISTANT'], ['secretary']],
    [['RECEPTIONIST'], ['secretary']],
    [['QUEUE_MANAGER'], ['secretary']],
    [['CHARGE_NURSE'], ['secretary']],
    [['NURSE'], ['nurse']],
    [['ADMIN'], ['admin']],
    [['ADMINISTRATOR'], ['admin']],
    [['HOSPITAL_ADMIN'], ['admin']],
    [['PHARMACIST'], ['pharmacist']],
    [['CASHIER'], ['cashier']],
    [['LAB_TECH'], ['doctor']],
  ])('%j → %j', (codes, kinds) => {
    expect(dashboardGroupsOf(user(...codes))).toEqual(kinds);
  });

  it('combines all active roles, in display order, without duplicates', () => {
    expect(dashboardGroupsOf(user('ADMIN', 'NURSE', 'DOCTOR', 'SECRETARY'))).toEqual([
      'doctor',
      'secretary',
      'nurse',
      'admin',
    ]);
    expect(dashboardGroupsOf(user('HEAD_DOCTOR', 'ADMIN', 'DOCTOR'))).toEqual(['doctor', 'admin']);
    expect(dashboardGroupsOf(user('CASHIER', 'PHARMACIST', 'NURSE'))).toEqual([
      'nurse',
      'pharmacist',
      'cashier',
    ]);
  });

  it('gives the admin dashboard when there is no user', () => {
    expect(dashboardGroupsOf(null)).toEqual(['admin']);
    expect(dashboardGroupsOf(undefined)).toEqual(['admin']);
  });

  it('treats a user without active roles as an unknown code (doctor)', () => {
    expect(dashboardGroupsOf({ active_roles: [] })).toEqual(['doctor']);
  });
});
