import { describe, expect, it } from 'vitest';
import {
  accessDeniedRedirect,
  allowedModules,
  canAccessModule,
  canOpenModule,
  DEFAULT_REFUSAL,
  environmentRefusal,
  isRoleRestricted,
  MODULE_AUDIENCE,
  MODULE_ENTRY_ACTION,
  ROLE_RESTRICTIONS,
  roleRefusal,
} from './access.js';
import { MODULES, type ModuleName } from './modules.js';
import { ACTION_GROUPS } from './permissions.js';

const user = (...codes: string[]) => ({ active_roles: codes.map((role_code) => ({ role_code })) });

describe('refusal texts (§5)', () => {
  it('has the default refusal text', () => {
    expect(DEFAULT_REFUSAL).toEqual({ fr: 'Accès refusé', en: 'Access denied' });
  });

  it('formats the role refusal', () => {
    expect(roleRefusal('Examens', 'fr')).toBe(
      `L'accès au module "Examens" n'est pas autorisé pour votre rôle`,
    );
    expect(roleRefusal('Exams', 'en')).toBe('Access to the "Exams" module is not allowed for your role');
  });

  it('formats the environment refusal', () => {
    expect(environmentRefusal('Facturation', 'production', 'fr')).toBe(
      `L'accès au module "Facturation" n'est pas autorisé dans l'environnement production`,
    );
    expect(environmentRefusal('Billing', 'test', 'en')).toBe(
      'Access to the "Billing" module is not allowed in the test environment',
    );
  });
});

describe('ROLE_RESTRICTIONS (§6)', () => {
  it('bars secretaries from consultations and exams and midwives from exams', () => {
    expect(ROLE_RESTRICTIONS.secretary).toEqual(['consultations', 'exams']);
    expect(ROLE_RESTRICTIONS.midwife).toEqual(['exams']);
    expect(Object.keys(ROLE_RESTRICTIONS).sort()).toEqual(['cashier', 'midwife', 'pharmacist', 'secretary']);
  });

  it('bars the pharmacist and the cashier from every clinical module and from each other’s desk (decision 0070)', () => {
    for (const m of [
      'admissions',
      'consultations',
      'exams',
      'triage',
      'hospitalizations',
      'care',
      'doctors',
    ] as const) {
      expect(ROLE_RESTRICTIONS.pharmacist, m).toContain(m);
      expect(ROLE_RESTRICTIONS.cashier, m).toContain(m);
    }
    expect(ROLE_RESTRICTIONS.pharmacist).toContain('billing');
    expect(ROLE_RESTRICTIONS.pharmacist).not.toContain('pharmacy');
    expect(ROLE_RESTRICTIONS.cashier).toContain('pharmacy');
    expect(ROLE_RESTRICTIONS.cashier).not.toContain('billing');
    expect(
      canAccessModule({ moduleName: 'consultations', environment: 'development', user: user('PHARMACIST') }),
    ).toMatchObject({ allowed: false, reason: 'role' });
    // A pharmacist who is also a nurse keeps the nurse's modules (a restriction needs every role restricted).
    expect(
      canAccessModule({ moduleName: 'care', environment: 'development', user: user('PHARMACIST', 'NURSE') })
        .allowed,
    ).toBe(true);
  });
});

describe('canAccessModule', () => {
  it('lets a doctor open everything in development', () => {
    for (const m of MODULES) {
      expect(
        canAccessModule({ moduleName: m.name, environment: 'development', user: user('DOCTOR') }),
      ).toEqual({
        allowed: true,
      });
    }
  });

  it.each(['SECRETARY', 'ADMIN_ASSISTANT', 'RECEPTIONIST'])(
    'refuses consultations and exams to %s for their role',
    (code) => {
      expect(
        canAccessModule({ moduleName: 'consultations', environment: 'development', user: user(code) }),
      ).toEqual({
        allowed: false,
        reason: 'role',
        message: {
          fr: `L'accès au module "Consultations" n'est pas autorisé pour votre rôle`,
          en: 'Access to the "Consultations" module is not allowed for your role',
        },
      });
      expect(canAccessModule({ moduleName: 'exams', environment: 'development', user: user(code) })).toEqual({
        allowed: false,
        reason: 'role',
        message: {
          fr: `L'accès au module "Examens" n'est pas autorisé pour votre rôle`,
          en: 'Access to the "Exams" module is not allowed for your role',
        },
      });
      expect(
        canAccessModule({ moduleName: 'patients', environment: 'development', user: user(code) }).allowed,
      ).toBe(true);
    },
  );

  it('refuses exams to a midwife but not consultations', () => {
    const midwife = user('SAGE_FEMME');
    const exams = canAccessModule({ moduleName: 'exams', environment: 'production', user: midwife });
    expect(exams.allowed).toBe(false);
    expect(exams.allowed === false && exams.reason).toBe('role');
    expect(
      canAccessModule({ moduleName: 'consultations', environment: 'production', user: midwife }).allowed,
    ).toBe(true);
  });

  it.each(['QUEUE_MANAGER', 'CHARGE_NURSE', 'NURSE', 'HEAD_DOCTOR', 'DOCTOR', 'ADMIN', 'LAB_TECH'])(
    'lets %s open consultations and exams',
    (code) => {
      for (const moduleName of ['consultations', 'exams'] as ModuleName[]) {
        expect(canAccessModule({ moduleName, environment: 'production', user: user(code) }).allowed).toBe(
          true,
        );
      }
    },
  );

  it('lets a missing user (admin group) open consultations and exams', () => {
    expect(canAccessModule({ moduleName: 'exams', environment: 'development', user: null }).allowed).toBe(
      true,
    );
  });

  it('restricts only when every active role is restricted', () => {
    expect(isRoleRestricted(user('SECRETARY', 'DOCTOR'), 'exams')).toBe(false);
    expect(isRoleRestricted(user('DOCTOR', 'SECRETARY'), 'consultations')).toBe(false);
    expect(isRoleRestricted(user('SECRETARY', 'RECEPTIONIST'), 'exams')).toBe(true);
    expect(isRoleRestricted(user('SECRETARY', 'SAGE_FEMME'), 'exams')).toBe(true);
    expect(isRoleRestricted(user('SECRETARY', 'SAGE_FEMME'), 'consultations')).toBe(false);
  });

  it('checks the environment before the role', () => {
    expect(
      canAccessModule({ moduleName: 'billing', environment: 'production', user: user('SECRETARY') }),
    ).toEqual({
      allowed: false,
      reason: 'environment',
      message: {
        fr: `L'accès au module "Facturation" n'est pas autorisé dans l'environnement production`,
        en: 'Access to the "Billing" module is not allowed in the production environment',
      },
    });
  });

  it('refuses modules outside the environment to everyone', () => {
    const decision = canAccessModule({ moduleName: 'analytics', environment: 'production', user: null });
    expect(decision).toMatchObject({ allowed: false, reason: 'environment' });
    expect(canAccessModule({ moduleName: 'analytics', environment: 'test', user: null }).allowed).toBe(true);
    expect(canAccessModule({ moduleName: 'chat', environment: 'test', user: null })).toMatchObject({
      allowed: false,
      reason: 'environment',
      message: { en: 'Access to the "Messaging" module is not allowed in the test environment' },
    });
  });
});

describe('extra modules of an installation', () => {
  it('opens a module outside the environment set when the installation adds it, roles still applying', () => {
    expect(
      canAccessModule({ moduleName: 'admin', environment: 'production', user: user('ADMIN') }),
    ).toMatchObject({
      allowed: false,
      reason: 'environment',
    });
    expect(
      canAccessModule({
        moduleName: 'admin',
        environment: 'production',
        extraModules: ['admin'],
        user: user('ADMIN'),
      }).allowed,
    ).toBe(true);
    expect(
      canAccessModule({
        moduleName: 'exams',
        environment: 'development',
        extraModules: ['exams'],
        user: user('SECRETARY'),
      }).reason,
    ).toBe('role');
    expect(allowedModules('production', user('ADMIN'), ['admin', 'hospitals'])).toHaveLength(8);
  });
});

describe('allowedModules', () => {
  it('gives a secretary in production the production modules minus consultations and exams', () => {
    expect(allowedModules('production', user('SECRETARY')).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'admissions',
      'templates',
    ]);
  });

  it('gives a midwife in test everything of test but exams (spec) and reporting (nothing to do there)', () => {
    expect(allowedModules('test', user('SAGE_FEMME')).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'admissions',
      'consultations',
      'templates',
    ]);
  });

  it("gives an administrator every module but the nurses' records in development, and each role what it has to do", () => {
    // Care records are the care team's (decision 0025): the administrator manages, she does not nurse.
    // Nor appointments: she keeps the schedules and holidays (on /calendar), she books nobody (decision 0028).
    expect(allowedModules('development', user('ADMIN')).map((m) => m.name)).toEqual(
      MODULES.map((m) => m.name).filter((m) => m !== 'care' && m !== 'appointments'),
    );
    // The secretary and the nurse do not see hospitals or administration (issue 25); the secretary sees billing,
    // where the cashiers work (decision 0027), the nurse does not.
    expect(allowedModules('development', user('SECRETARY')).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'admissions',
      'doctors',
      'triage',
      'hospitalizations',
      'billing',
      'appointments',
      'templates',
      'chat',
    ]);
    const nurse = allowedModules('development', user('NURSE')).map((m) => m.name);
    expect(nurse).toContain('care');
    expect(nurse).toContain('pharmacy');
    expect(nurse).not.toContain('billing');
    expect(nurse).not.toContain('hospitals');
    expect(nurse).not.toContain('admin');
    expect(allowedModules('development', user('HEAD_DOCTOR')).map((m) => m.name)).toContain('analytics');
  });

  it('gives the pharmacist and the cashier their desk, the patients and the chat only (decision 0070)', () => {
    expect(allowedModules('development', user('PHARMACIST')).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'pharmacy',
      'chat',
    ]);
    expect(allowedModules('development', user('CASHIER')).map((m) => m.name)).toEqual([
      'dashboard',
      'patients',
      'medical_acts',
      'billing',
      'chat',
    ]);
  });

  it("refuses a page outside the role's audience with the specification's text, but not the API check", () => {
    const input = {
      moduleName: 'billing' as const,
      environment: 'development' as const,
      user: user('NURSE'),
    };
    expect(canAccessModule(input).allowed).toBe(true);
    expect(canOpenModule(input)).toEqual({
      allowed: false,
      reason: 'role',
      message: {
        fr: `L'accès au module "Facturation" n'est pas autorisé pour votre rôle`,
        en: `Access to the "Billing" module is not allowed for your role`,
      },
    });
    // A user with two roles opens what either role has to do.
    expect(
      canOpenModule({
        ...input,
        user: { active_roles: [{ role_code: 'NURSE' }, { role_code: 'HEAD_DOCTOR' }] },
      }).allowed,
    ).toBe(true);
  });

  it('shows care to the care team the API lets read it', () => {
    expect([...MODULE_AUDIENCE.care].sort()).toEqual([...ACTION_GROUPS['care.read']].sort());
  });

  it('derives the audience of a module with a reading action from that action alone (issue 36)', () => {
    expect(Object.keys(MODULE_ENTRY_ACTION).sort()).toEqual(['analytics', 'appointments', 'care']);
    for (const [module, action] of Object.entries(MODULE_ENTRY_ACTION)) {
      expect([...MODULE_AUDIENCE[module as ModuleName]].sort(), module).toEqual(
        [...ACTION_GROUPS[action]].sort(),
      );
    }
    // The administrator manages schedules and holidays (on /calendar), but reads no appointment: no Rendez-vous.
    expect(
      canOpenModule({ moduleName: 'appointments', environment: 'development', user: user('ADMIN') }),
    ).toEqual({
      allowed: false,
      reason: 'role',
      message: {
        fr: `L'accès au module "Rendez-vous" n'est pas autorisé pour votre rôle`,
        en: `Access to the "Appointments" module is not allowed for your role`,
      },
    });
  });

  it("keeps the specification's two restrictions inside the module × role table", () => {
    for (const [group, modules] of Object.entries(ROLE_RESTRICTIONS)) {
      for (const m of modules ?? []) expect(MODULE_AUDIENCE[m]).not.toContain(group);
    }
    expect(Object.keys(MODULE_AUDIENCE).sort()).toEqual(MODULES.map((m) => m.name).sort());
  });
});

describe('accessDeniedRedirect', () => {
  it('sends to the dashboard with the encoded message', () => {
    expect(accessDeniedRedirect('Accès refusé')).toBe(
      '/?access_denied=true&message=Acc%C3%A8s%20refus%C3%A9',
    );
    const message = roleRefusal('Examens', 'fr');
    const url = new URL(accessDeniedRedirect(message), 'http://x');
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('access_denied')).toBe('true');
    expect(url.searchParams.get('message')).toBe(message);
  });
});
