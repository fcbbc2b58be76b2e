/**
 * Who keeps a copy and of what (issue 40, decision 0064): a nurse or charge nurse of the current hospital keeps
 * the last answers of her ward's reads — the care lists, rounds, plans, MAR, tasks, handoffs and her own
 * patients, the hospital's departments and wards (names only) — and the two calls that open the app
 * (configuration, profile). No other role keeps anything.
 */
import { useAuthStore } from '../../stores/auth';
import { useUserStore } from '../../stores/user';

const NURSING = new Set(['NURSE', 'CHARGE_NURSE']);

const KEPT = [
  /^\/api\/config\/$/,
  /^\/api\/profile\/$/,
  /^\/api\/care\/(patients|rounds|shift|executions|handoffs|nurses)\//,
  /^\/api\/care\/plans\/[0-9a-f-]{36}\/(|mar\/|executions\/|orders\/|vitals\/|handoff-draft\/)(\?|$)/,
  /^\/api\/care\/handoffs\/[0-9a-f-]{36}\/$/,
  /^\/api\/wards\//,
  /^\/api\/departments\/(\?|$)/,
  /^\/api\/nurses\/[0-9a-f-]{36}\/(patients|tasks)\//,
];

/** `user:hospital` of a nurse of the current hospital, else null (nothing is kept). */
export function offlineOwner(): string | null {
  const { user } = useUserStore.getState();
  const hospital = useAuthStore.getState().currentHospitalId;
  if (!user || !hospital) return null;
  const nursing = user.active_roles.some(
    (r) => NURSING.has(r.role_code.toUpperCase()) && (!r.hospital || r.hospital === hospital),
  );
  return nursing ? `${user.id}:${hospital}` : null;
}

/** Whether the answer of a GET of `url` is kept for reading offline. */
export function isKeptRead(url: string): boolean {
  return KEPT.some((re) => re.test(url));
}
