import type { TNotification, TSocketEnvelope } from '@greensen/shared/contracts/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentPathname } from '../../lib/navigation';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { useAuthStore } from '../../stores/auth';
import { useNotificationsStore } from '../../stores/notifications';
import { usePreferencesStore } from '../../stores/preferences';
import { useRefreshFlagsStore } from '../../stores/refresh-flags';
import { useUserStore } from '../../stores/user';
import { makeUser } from '../../test/render';
import { notificationTarget, playNotificationSound } from './notification-helpers';
import { handleSocketEnvelope } from './useNotificationStream';

vi.mock('../../lib/toast', () => ({ toast: vi.fn() }));
vi.mock('../../lib/navigation', () => ({ currentPathname: vi.fn(() => '/'), navigateTo: vi.fn() }));
vi.mock('../../lib/api-client', () => ({ api: { get: vi.fn(), post: vi.fn(), delete: vi.fn() } }));

const play = vi.fn<() => Promise<void>>();
const audios: { src: string; volume: number }[] = [];
class FakeAudio {
  volume = 1;
  constructor(readonly src: string) {
    audios.push(this);
  }
  play() {
    return play();
  }
}

let seq = 0;
function notification(over: Partial<TNotification> = {}): TNotification {
  seq += 1;
  return {
    id: `n-${seq}`,
    notification_type: 'other',
    title: 'Titre',
    message: 'Message',
    data: {},
    initiated_by: null,
    is_read: false,
    read_at: null,
    created_at: new Date().toISOString(),
    hospital: 'h1',
    ...over,
  };
}

const push = (n: TNotification) =>
  handleSocketEnvelope({ action: 'new_notification', hospital: n.hospital, message: n });
const flags = () => {
  const { hospitalization, transfer, bed_assignment, dashboard } = useRefreshFlagsStore.getState();
  return { hospitalization, transfer, bed_assignment, dashboard };
};

describe('notification stream', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    audios.length = 0;
    play.mockResolvedValue(undefined);
    vi.stubGlobal('Audio', FakeAudio);
    vi.mocked(currentPathname).mockReturnValue('/');
    useAuthStore.setState({ access: 'a', currentHospitalId: 'h1' });
    useUserStore.setState({ user: makeUser({ id: 'me' }) });
    usePreferencesStore.setState({ notificationSound: true, hospitalNotificationSound: true });
    useRefreshFlagsStore.setState({
      hospitalization: false,
      transfer: false,
      bed_assignment: false,
      dashboard: false,
    });
    useNotificationsStore.getState().reset();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('adds a new notification to the list and shows a 5000 ms toast in its colour', () => {
    const n = notification({ notification_type: 'transfer', title: 'Transfert demandé', message: 'Lit 12' });
    push(n);
    expect(useNotificationsStore.getState().notifications).toEqual([n]);
    expect(useNotificationsStore.getState().unreadCount).toBe(1);
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Transfert demandé',
        description: 'Lit 12',
        color: 'purple',
        duration: 5000,
      }),
    );
  });

  it('ignores a notification already listed (no second toast or count)', () => {
    const n = notification();
    push(n);
    push(n);
    expect(toast).toHaveBeenCalledTimes(1);
    expect(useNotificationsStore.getState().unreadCount).toBe(1);
  });

  it('ignores events of a hospital other than the current one', () => {
    push(notification({ hospital: 'h2' }));
    handleSocketEnvelope({ action: 'mark_read', hospital: 'h2', message: { ids: null, unread_count: 0 } });
    expect(useNotificationsStore.getState().notifications).toEqual([]);
    expect(toast).not.toHaveBeenCalled();
  });

  it('plays the sound at volume 0.4 for execution_assigned, execution_reassigned and patient_assigned only', () => {
    push(notification({ notification_type: 'execution_assigned' }));
    push(notification({ notification_type: 'execution_reassigned' }));
    push(notification({ notification_type: 'consultation', data: { action: 'patient_assigned' } }));
    push(notification({ notification_type: 'consultation', data: { action: 'other' } }));
    push(notification({ notification_type: 'execution_scheduled' }));
    push(notification({ notification_type: 'transfer' }));
    expect(play).toHaveBeenCalledTimes(3);
    expect(audios.every((a) => a.src === '/notification.mp3' && a.volume === 0.4)).toBe(true);
  });

  it('stays silent when the user turned the sound off', () => {
    usePreferencesStore.setState({ notificationSound: false });
    push(notification({ notification_type: 'execution_assigned' }));
    expect(play).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledTimes(1);
  });

  it("follows the hospital's default when the user made no choice, and the user's choice over it", () => {
    usePreferencesStore.setState({ notificationSound: null, hospitalNotificationSound: false });
    push(notification({ notification_type: 'execution_assigned' }));
    expect(play).not.toHaveBeenCalled();
    usePreferencesStore.setState({ notificationSound: true });
    push(notification({ notification_type: 'execution_assigned' }));
    expect(play).toHaveBeenCalledTimes(1);
    usePreferencesStore.setState({ notificationSound: null, hospitalNotificationSound: true });
    push(notification({ notification_type: 'execution_reassigned' }));
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('only logs a refused autoplay', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    play.mockRejectedValueOnce(Object.assign(new Error('blocked'), { name: 'NotAllowedError' }));
    playNotificationSound();
    await Promise.resolve();
    await Promise.resolve();
    expect(info).toHaveBeenCalledWith(expect.stringContaining('sound'), 'NotAllowedError');
    info.mockRestore();
  });

  it('raises the dashboard flag on home for patient_assigned and execution events, unless I initiated them', () => {
    push(
      notification({
        notification_type: 'consultation',
        data: { action: 'patient_assigned' },
        initiated_by: 'me',
      }),
    );
    expect(flags().dashboard).toBe(false);
    push(
      notification({
        notification_type: 'consultation',
        data: { action: 'patient_assigned' },
        initiated_by: 'x',
      }),
    );
    expect(flags().dashboard).toBe(true);

    useRefreshFlagsStore.setState({ dashboard: false });
    vi.mocked(currentPathname).mockReturnValue('/en/exams');
    push(notification({ notification_type: 'execution_scheduled' }));
    expect(flags().dashboard).toBe(true);
  });

  it('raises the hospitalization, transfer and bed_assignment flags on a hospitalizations page', () => {
    vi.mocked(currentPathname).mockReturnValue('/hospitalizations/42');
    push(notification({ notification_type: 'transfer' }));
    push(notification({ notification_type: 'bed_assignment' }));
    expect(flags()).toEqual({
      hospitalization: false,
      transfer: true,
      bed_assignment: true,
      dashboard: false,
    });
    vi.mocked(currentPathname).mockReturnValue('/patients');
    push(notification({ notification_type: 'hospitalization' }));
    expect(flags().hospitalization).toBe(false);
  });

  it('applies mark_read and delete_notification pushed from another device', () => {
    const a = notification();
    const b = notification();
    push(a);
    push(b);
    const read: TSocketEnvelope = {
      action: 'mark_read',
      hospital: 'h1',
      message: { ids: [a.id], unread_count: 1 },
    };
    handleSocketEnvelope(read);
    expect(useNotificationsStore.getState().notifications.find((n) => n.id === a.id)?.is_read).toBe(true);
    expect(useNotificationsStore.getState().unreadCount).toBe(1);
    handleSocketEnvelope({
      action: 'delete_notification',
      hospital: 'h1',
      message: { id: b.id, unread_count: 0 },
    });
    expect(useNotificationsStore.getState().notifications.map((n) => n.id)).toEqual([a.id]);
    expect(useNotificationsStore.getState().unreadCount).toBe(0);
  });

  it('a care task (assigned, reassigned, scheduled) leads to its care file and refreshes the care queries', () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const n = notification({
      notification_type: 'execution_reassigned',
      data: { action: 'execution_reassigned', execution_id: 'e1', plan_id: 'c1', patient_id: 'p1' },
    });
    expect(notificationTarget(n)).toBe('/care/c1');
    push(n);
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual(expect.arrayContaining([['care'], ['dashboard', 'nurse']]));
    invalidate.mockClear();
    // The consultation queue's executions carry no care plan: they keep leading to the visit.
    push(notification({ notification_type: 'execution_assigned', data: { admission_id: 'a1' } }));
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).not.toContainEqual(['care']);
    invalidate.mockRestore();
  });

  it('leads to the admission, else the patient, else the hospitalizations for a hospitalization', () => {
    expect(
      notificationTarget({
        notification_type: 'consultation',
        data: { admission_id: 'a1', patient_id: 'p1' },
      }),
    ).toBe('/admissions/a1');
    expect(notificationTarget({ notification_type: 'other', data: { patient_id: 'p1' } })).toBe(
      '/patients/p1',
    );
    expect(notificationTarget({ notification_type: 'hospitalization', data: {} })).toBe('/hospitalizations');
    // A signed prescription leads the pharmacy to what it has to dispense.
    expect(
      notificationTarget({
        notification_type: 'other',
        data: { action: 'prescription_signed', prescription_id: 'rx1', patient: 'p1' },
      }),
    ).toBe('/pharmacy/prescriptions/rx1');
    expect(
      notificationTarget({ notification_type: 'other', data: { action: 'account_waiting' } }),
    ).toBeNull();
  });
});
