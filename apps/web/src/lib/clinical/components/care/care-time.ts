/**
 * The real time of a recorded act, as a tablet's native date-time field holds it (`YYYY-MM-DDTHH:mm`, local
 * time): now by default, editable, never in the future (the server also refuses more than 24 h back).
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
}

/** The ISO instant of a local `YYYY-MM-DDTHH:mm`, or null when it is not one. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Why a real time cannot be recorded: unreadable, in the future, or more than 24 h back; null when fine. */
export function realTimeError(value: string, now = new Date()): 'invalid' | 'future' | 'too_old' | null {
  const iso = fromLocalInput(value);
  if (!iso) return 'invalid';
  const at = new Date(iso).getTime();
  // The field has minutes only: the current minute is not the future.
  if (at > now.getTime() + 60_000) return 'future';
  if (at < now.getTime() - 24 * 3600_000) return 'too_old';
  return null;
}
