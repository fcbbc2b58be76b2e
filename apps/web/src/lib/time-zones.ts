/** The IANA time zones the browser knows (Africa first: the hospitals we serve). */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...all.filter((z) => z.startsWith('Africa/')), ...all.filter((z) => !z.startsWith('Africa/'))];
}
