import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFICATION_STYLE,
  NOTIFICATION_LIST_CAP,
  NOTIFICATION_PAGE_ADD_CAP,
  NOTIFICATION_SOUND_VOLUME,
  NOTIFICATION_STYLE,
  NOTIFICATION_TOAST_MS,
  NOTIFICATION_TYPES,
  type NotificationLike,
  notificationStyle,
  refreshFlagsFor,
  shouldPlaySound,
  TOAST_DEFAULT_MS,
} from './notifications.js';

describe('notification constants', () => {
  it('lists the 11 types in the specification order', () => {
    expect(NOTIFICATION_TYPES).toEqual([
      'consultation',
      'hospitalization',
      'transfer',
      'bed_assignment',
      'execution_assigned',
      'execution_reassigned',
      'execution_scheduled',
      'appointment',
      'schedule',
      'service',
      'other',
    ]);
  });

  it('has the list caps, toast durations and sound volume', () => {
    expect(NOTIFICATION_LIST_CAP).toBe(500);
    expect(NOTIFICATION_PAGE_ADD_CAP).toBe(200);
    expect(NOTIFICATION_TOAST_MS).toBe(5000);
    expect(TOAST_DEFAULT_MS).toBe(3000);
    expect(NOTIFICATION_SOUND_VOLUME).toBe(0.4);
  });
});

describe('shouldPlaySound', () => {
  it.each([
    [{ notification_type: 'execution_assigned' }, true],
    [{ notification_type: 'execution_reassigned' }, true],
    [{ notification_type: 'consultation', data: { action: 'patient_assigned' } }, true],
    [{ notification_type: 'consultation', data: { action: 'completed' } }, false],
    [{ notification_type: 'consultation' }, false],
    [{ notification_type: 'consultation', data: null }, false],
    [{ notification_type: 'execution_scheduled' }, false],
    [{ notification_type: 'transfer', data: { action: 'patient_assigned' } }, false],
    [{ notification_type: 'hospitalization' }, false],
    [{ notification_type: 'other' }, false],
  ] as [NotificationLike, boolean][])('%j → %s', (notification, expected) => {
    expect(shouldPlaySound(notification)).toBe(expected);
  });
});

describe('notificationStyle', () => {
  it('uses the specified colours (Mantine names)', () => {
    expect(notificationStyle('transfer').color).toBe('purple');
    expect(notificationStyle('bed_assignment').color).toBe('emerald');
    expect(notificationStyle('execution_reassigned').color).toBe('amber');
    expect(notificationStyle('execution_scheduled').color).toBe('indigo');
  });

  it('falls back to a gray bell', () => {
    expect(DEFAULT_NOTIFICATION_STYLE).toEqual({ icon: 'IconBell', color: 'gray' });
    expect(notificationStyle('unknown_type')).toEqual({ icon: 'IconBell', color: 'gray' });
    expect(notificationStyle('other')).toEqual({ icon: 'IconBell', color: 'gray' });
  });

  it('styles every type with a Tabler icon', () => {
    for (const type of NOTIFICATION_TYPES) {
      expect(NOTIFICATION_STYLE[type].icon).toMatch(/^Icon[A-Z]/);
      expect(NOTIFICATION_STYLE[type].color).not.toBe('');
    }
  });
});

describe('refreshFlagsFor (§4)', () => {
  const flags = (notification: NotificationLike, pathname: string, currentUserId: string | null = 'me') =>
    refreshFlagsFor({ notification, pathname, currentUserId });
  const assigned = { notification_type: 'consultation', data: { action: 'patient_assigned' } };

  it('sets the dashboard flag on home or dashboard for a consultation patient_assigned', () => {
    expect(flags(assigned, '/')).toEqual(['dashboard']);
    expect(flags(assigned, '/dashboard')).toEqual(['dashboard']);
    expect(flags(assigned, '/en')).toEqual(['dashboard']);
    expect(flags(assigned, '/en/dashboard/')).toEqual(['dashboard']);
    expect(flags(assigned, '/?access_denied=true')).toEqual(['dashboard']);
  });

  it('does not set it for patient_assigned elsewhere or for other consultation actions', () => {
    expect(flags(assigned, '/exams')).toEqual([]);
    expect(flags(assigned, '/doctors/3')).toEqual([]);
    expect(flags(assigned, '/patients')).toEqual([]);
    expect(flags({ notification_type: 'consultation', data: { action: 'updated' } }, '/')).toEqual([]);
    expect(flags({ notification_type: 'consultation' }, '/dashboard')).toEqual([]);
  });

  it.each(['execution_assigned', 'execution_reassigned', 'execution_scheduled'])(
    'sets the dashboard flag for %s on home, dashboard, exams and doctors pages',
    (type) => {
      const n = { notification_type: type };
      for (const path of [
        '/',
        '/dashboard',
        '/exams',
        '/exams/12',
        '/doctors',
        '/doctors/4',
        '/en/exams/1',
      ]) {
        expect(flags(n, path)).toEqual(['dashboard']);
      }
      for (const path of ['/patients', '/examsX', '/doctorsX', '/hospitalizations', '/en/consultations']) {
        expect(flags(n, path)).toEqual([]);
      }
    },
  );

  it.each(['hospitalization', 'transfer', 'bed_assignment'])(
    'sets the %s flag on a hospitalizations page only',
    (type) => {
      const n = { notification_type: type };
      expect(flags(n, '/hospitalizations')).toEqual([type]);
      expect(flags(n, '/hospitalizations/9')).toEqual([type]);
      expect(flags(n, '/en/hospitalizations/9/')).toEqual([type]);
      expect(flags(n, '/transfers')).toEqual([type]);
      expect(flags(n, '/en/transfers')).toEqual([type]);
      expect(flags(n, '/')).toEqual([]);
      expect(flags(n, '/patients')).toEqual([]);
      expect(flags(n, '/hospitalizationsX')).toEqual([]);
    },
  );

  it('sets nothing for other types', () => {
    for (const type of ['appointment', 'schedule', 'service', 'other']) {
      expect(flags({ notification_type: type }, '/')).toEqual([]);
      expect(flags({ notification_type: type }, '/hospitalizations')).toEqual([]);
    }
  });

  it('skips every flag when the current user initiated the event', () => {
    expect(flags({ ...assigned, initiated_by: 'me' }, '/')).toEqual([]);
    expect(flags({ notification_type: 'execution_assigned', initiated_by: 'me' }, '/exams')).toEqual([]);
    expect(flags({ notification_type: 'transfer', initiated_by: 'me' }, '/hospitalizations')).toEqual([]);
    expect(
      refreshFlagsFor({
        notification: { notification_type: 'transfer', initiated_by: 42 },
        pathname: '/hospitalizations',
        currentUserId: '42',
      }),
    ).toEqual([]);
  });

  it('keeps the flags when someone else initiated the event or nobody is known', () => {
    expect(flags({ ...assigned, initiated_by: 'other' }, '/')).toEqual(['dashboard']);
    expect(flags({ ...assigned, initiated_by: null }, '/')).toEqual(['dashboard']);
    expect(flags({ notification_type: 'transfer', initiated_by: 'me' }, '/hospitalizations', null)).toEqual([
      'transfer',
    ]);
  });
});
