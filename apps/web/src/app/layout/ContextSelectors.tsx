/** Hospital switcher and department selector of the header. */
import type { TWaitingByHospital, TWaitingInHospital } from '@greensen/shared/contracts/profile';
import { Indicator, Select, Stack, type StyleProp, Text } from '@mantine/core';
import { IconBuildingHospital, IconStethoscope } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client';
import { useShellRequestsReleased } from '../../lib/first-data';
import { switchHospital } from '../../lib/session';
import { HEADER_DROPDOWN_Z_INDEX } from '../../lib/toast-layer';
import { useAuthStore } from '../../stores/auth';
import { departmentsOfHospital, useUserStore } from '../../stores/user';

/** Refreshed every minute, like the dashboards; only asked for when the user works in several hospitals. */
const WAITING_REFRESH_MS = 60_000;

/** What waits for the user in each of her hospitals (counts only), keyed by hospital id. */
function useWaitingByHospital(enabled: boolean) {
  // After the page's first data (lib/first-data.ts).
  const released = useShellRequestsReleased();
  const query = useQuery({
    queryKey: ['profile', 'waiting'],
    queryFn: () => api.get<TWaitingByHospital>('profile/waiting/', { silent: true }),
    enabled: enabled && released,
    refetchInterval: WAITING_REFRESH_MS,
    staleTime: WAITING_REFRESH_MS / 2,
  });
  return new Map((query.data?.results ?? []).map((row) => [row.hospital, row]));
}

/** "3 patients · 1 résultat anormal" for what waits in a hospital, or null when nothing does. */
function waitingText(row: TWaitingInHospital | undefined, t: TFunction<'shell'>): string | null {
  if (!row) return null;
  const parts = [
    row.waiting_patients > 0 ? t('hospital.waiting.patients', { count: row.waiting_patients }) : null,
    row.abnormal_results > 0 ? t('hospital.waiting.results', { count: row.abnormal_results }) : null,
    row.unread_notifications > 0 ? t('hospital.waiting.unread', { count: row.unread_notifications }) : null,
  ].filter((part): part is string => part !== null);
  return parts.length ? parts.join(' · ') : null;
}

export function HospitalSwitcher({ w = 250 }: { w?: StyleProp<number | string> }) {
  const { t } = useTranslation('shell');
  const hospitals = useUserStore((state) => state.user?.hospitals ?? []);
  const currentHospitalId = useAuthStore((state) => state.currentHospitalId);
  const waiting = useWaitingByHospital(hospitals.length > 1);
  // What waits elsewhere (never the current hospital's counts: its dashboard shows them).
  const elsewhere = hospitals.filter((h) => h.id !== currentHospitalId && waitingText(waiting.get(h.id), t));
  const urgentElsewhere = elsewhere.some((h) => (waiting.get(h.id)?.abnormal_results ?? 0) > 0);
  return (
    <Indicator
      disabled={elsewhere.length === 0}
      color={urgentElsewhere ? 'red' : 'blue'}
      size={10}
      offset={4}
      processing={urgentElsewhere}
    >
      <Select
        w={w}
        size="sm"
        aria-label={t('hospital.label')}
        aria-description={
          elsewhere.length
            ? t('hospital.waiting.elsewhere', {
                hospitals: elsewhere.map((h) => h.code || h.name).join(', '),
              })
            : undefined
        }
        placeholder={t('hospital.placeholder')}
        leftSection={<IconBuildingHospital size={16} />}
        data={hospitals.map((hospital) => ({
          value: hospital.id,
          // Code first: when the header is narrow the name is cut, and the code still tells which hospital.
          label: hospital.code ? `${hospital.code} · ${hospital.name}` : hospital.name,
        }))}
        renderOption={({ option }) => {
          const text = option.value === currentHospitalId ? null : waitingText(waiting.get(option.value), t);
          const urgent = (waiting.get(option.value)?.abnormal_results ?? 0) > 0;
          return (
            <Stack gap={0}>
              <Text size="sm">{option.label}</Text>
              {text && (
                <Text size="xs" c={urgent ? 'red.8' : 'dimmed'} fw={urgent ? 600 : undefined}>
                  {text}
                </Text>
              )}
            </Stack>
          );
        }}
        value={currentHospitalId}
        allowDeselect={false}
        onChange={(value) => {
          if (value && value !== currentHospitalId) switchHospital(value);
        }}
        comboboxProps={{ withinPortal: true, zIndex: HEADER_DROPDOWN_Z_INDEX }}
      />
    </Indicator>
  );
}

export function DepartmentSelector({ w = 200 }: { w?: StyleProp<number | string> }) {
  const { t } = useTranslation('shell');
  const user = useUserStore((state) => state.user);
  const currentDepartmentId = useUserStore((state) => state.currentDepartmentId);
  const setDepartment = useUserStore((state) => state.setCurrentDepartmentId);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const departments = departmentsOfHospital(user, hospitalId);
  return (
    <Select
      w={w}
      size="sm"
      aria-label={t('department.label')}
      placeholder={departments.length ? t('department.placeholder') : t('department.none')}
      disabled={departments.length === 0}
      leftSection={<IconStethoscope size={16} />}
      data={departments.map((department) => ({ value: department.id, label: department.name }))}
      value={currentDepartmentId}
      allowDeselect={false}
      onChange={(value) => setDepartment(value)}
      comboboxProps={{ withinPortal: true, zIndex: HEADER_DROPDOWN_Z_INDEX }}
    />
  );
}
