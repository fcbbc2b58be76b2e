import { describe, expect, it } from 'vitest';
import {
  type ConsultationAccessFacts,
  type ConsultationAccessUser,
  consultationAccess,
  mayAddAddendum,
} from './consultation-access.js';
import type { DashboardGroup } from './roles.js';

const DEP = 'dep-urgences';
const OTHER_DEP = 'dep-medecine';
const base: ConsultationAccessFacts = {
  doctorId: 'doc-1',
  departmentId: DEP,
  status: 'in_progress',
  admissionType: 'emergency',
};
const user = (
  id: string,
  groups: DashboardGroup[],
  departmentIds: string[] = [],
): ConsultationAccessUser => ({
  id,
  groups,
  departmentIds,
});

describe('consultation-access', () => {
  const cases: [string, ConsultationAccessUser, Partial<ConsultationAccessFacts>, string][] = [
    ['the assigned doctor edits', user('doc-1', ['doctor'], [DEP]), {}, 'edit'],
    [
      'the assigned doctor reads once completed',
      user('doc-1', ['doctor'], [DEP]),
      { status: 'completed' },
      'read',
    ],
    ['a head doctor of another department edits', user('chef', ['head_doctor'], [OTHER_DEP]), {}, 'edit'],
    [
      'a midwife edits a maternity admission',
      user('sf', ['midwife'], [OTHER_DEP]),
      { admissionType: 'maternity' },
      'edit',
    ],
    [
      'a midwife of another department cannot open an emergency one',
      user('sf', ['midwife'], [OTHER_DEP]),
      {},
      'none',
    ],
    ['a midwife of the department reads a non-maternity one', user('sf', ['midwife'], [DEP]), {}, 'read'],
    ['another doctor of the department reads', user('doc-2', ['doctor'], [DEP]), {}, 'read'],
    ['a doctor of another department is refused', user('doc-3', ['doctor'], [OTHER_DEP]), {}, 'none'],
    ['a nurse of the department is refused', user('inf', ['nurse'], [DEP]), {}, 'none'],
    ['a queue manager is refused', user('file', ['queue_manager'], [DEP]), {}, 'none'],
    ['an administrator is refused', user('adm', ['admin'], [DEP]), {}, 'none'],
    ['a secretary is refused', user('sec', ['secretary'], [DEP]), {}, 'none'],
    [
      'a secretary who is also the doctor of record is refused',
      user('doc-1', ['secretary', 'doctor'], [DEP]),
      {},
      'none',
    ],
    ['a nurse whose id is the doctor of record is refused', user('doc-1', ['nurse'], [DEP]), {}, 'none'],
    [
      'a direct consultation (no admission) for a midwife of another department',
      user('sf', ['midwife'], [OTHER_DEP]),
      { admissionType: null },
      'none',
    ],
    [
      'a cancelled consultation is read-only for its doctor',
      user('doc-1', ['doctor'], [DEP]),
      { status: 'cancelled' },
      'read',
    ],
  ];
  it.each(cases)('%s', (_name, u, facts, expected) => {
    expect(consultationAccess(u, { ...base, ...facts })).toBe(expected);
  });

  it('addenda: only on completed consultations, by someone responsible', () => {
    const completed = { ...base, status: 'completed' as const };
    expect(mayAddAddendum(user('doc-1', ['doctor']), completed)).toBe(true);
    expect(mayAddAddendum(user('chef', ['head_doctor']), completed)).toBe(true);
    expect(mayAddAddendum(user('doc-2', ['doctor'], [DEP]), completed)).toBe(false);
    expect(mayAddAddendum(user('doc-1', ['doctor']), base)).toBe(false);
    expect(mayAddAddendum(user('doc-1', ['doctor']), { ...base, status: 'cancelled' })).toBe(false);
  });
});
