// Small statistics and formatting helpers of the bench.

/** The p-th percentile (0–100) of a list of numbers, nearest rank; NaN for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (values) => percentile(values, 50);

/** Rounds to `digits` decimals (numbers only). */
export function round(value, digits = 2) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function ms(value) {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

export function rps(value) {
  if (!Number.isFinite(value)) return 'n/a';
  return `${Math.round(value).toLocaleString('en')} req/s`;
}

export function seconds(value) {
  if (!Number.isFinite(value)) return 'n/a';
  return `${(value / 1000).toFixed(2)} s`;
}

/** A deterministic pseudo-random generator (mulberry32), so that every run asks for the same records. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
