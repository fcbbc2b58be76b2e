import type { TNotification, TNotificationList } from '@greensen/shared/contracts/notifications';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { navigateTo } from '../../../lib/navigation';
import { notificationSocket } from '../../../lib/socket';
import { useAuthStore } from '../../../stores/auth';
import { useNotificationsStore } from '../../../stores/notifications';
import { TestProviders } from '../../../test/render';
import { NotificationBell } from './NotificationBell';

vi.mock('../../../lib/api-client', () => ({ api: { get: vi.fn(), post: vi.fn(), delete: vi.fn() } }));
vi.mock('../../../lib/navigation', () => ({ currentPathname: vi.fn(() => '/'), navigateTo: vi.fn() }));
vi.mock('../../../lib/socket', () => ({
  notificationSocket: {
    start: vi.fn(),
    stop: vi.fn(),
    subscribe: vi.fn(() => () => {}),
    onOpen: vi.fn(() => () => {}),
  },
}));

function notification(id: string, over: Partial<TNotification> = {}): TNotification {
  return {
    id,
    notification_type: 'consultation',
    title: `Titre ${id}`,
    message: `Message ${id}`,
    data: {},
    initiated_by: null,
    is_read: false,
    read_at: null,
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    hospital: 'h1',
    ...over,
  };
}

const list = (results: TNotification[], unread: number, next: string | null = null): TNotificationList => ({
  count: results.length,
  next,
  previous: null,
  results,
  unread_count: unread,
});

describe('NotificationBell', () => {
  beforeEach(async () => {
    vi.clearAllMocks();
    await i18n.changeLanguage('fr');
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
    useNotificationsStore.getState().reset();
  });

  it('shows the unread count and a panel, newest first, that opens what a notification is about', async () => {
    vi.mocked(api.get).mockResolvedValueOnce(
      list(
        [
          notification('n2', { notification_type: 'transfer', data: { admission_id: 'adm-7' } }),
          notification('n1', { is_read: true, read_at: new Date().toISOString() }),
        ],
        3,
        '/api/notifications/?page=2',
      ),
    );
    vi.mocked(api.post).mockResolvedValue({ updated: 1, unread_count: 2 });
    render(
      <TestProviders>
        <NotificationBell />
      </TestProviders>,
    );
    expect(notificationSocket.start).toHaveBeenCalled();
    const bell = await screen.findByRole('button', { name: 'Notifications (3 non lues)' });
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('3');

    await userEvent.click(bell);
    const items = await screen.findAllByTestId('notification-item');
    expect(items.map((i) => within(i).getByText(/^Titre/).textContent)).toEqual(['Titre n2', 'Titre n1']);
    expect(within(items[0]!).getByText(/Transfert · il y a 5 minutes/)).toBeInTheDocument();
    // jsdom has no layout: floating-ui reports the bell as detached and the dropdown gets display:none,
    // so queries inside the panel include hidden elements.
    expect(await screen.findByRole('button', { name: 'Charger plus', hidden: true })).toBeInTheDocument();

    await userEvent.click(within(items[0]!).getByText('Titre n2'));
    expect(api.post).toHaveBeenCalledWith(
      '/notifications/mark-read/',
      { notification_ids: ['n2'] },
      { silent: true },
    );
    expect(navigateTo).toHaveBeenCalledWith('/admissions/adm-7');
    await waitFor(() => expect(useNotificationsStore.getState().unreadCount).toBe(2));
  });

  it('marks everything read from the panel', async () => {
    vi.mocked(api.get).mockResolvedValueOnce(list([notification('a'), notification('b')], 2));
    vi.mocked(api.post).mockResolvedValue({ updated: 2, unread_count: 0 });
    render(
      <TestProviders>
        <NotificationBell />
      </TestProviders>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications (2 non lues)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Tout marquer comme lu', hidden: true }));
    expect(api.post).toHaveBeenCalledWith('/notifications/mark-read/', {}, { silent: true });
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(useNotificationsStore.getState().notifications.every((n) => n.is_read)).toBe(true);
  });

  it('shows an empty state', async () => {
    vi.mocked(api.get).mockResolvedValueOnce(list([], 0));
    render(
      <TestProviders>
        <NotificationBell />
      </TestProviders>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Aucune notification pour le moment.')).toBeInTheDocument();
  });
});
