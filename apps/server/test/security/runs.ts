/**
 * Size and seed of the property-based runs (mass assignment, fuzzing). The seed is printed with every report, so
 * that a failure replays with `SECURITY_SEED=<seed>`; `SECURITY_RUNS` multiplies the number of cases.
 */
export const SEED = process.env.SECURITY_SEED
  ? Number(process.env.SECURITY_SEED)
  : Date.now() % 2_147_483_647;
const factor = process.env.SECURITY_RUNS ? Math.max(0.1, Number(process.env.SECURITY_RUNS)) : 1;

/** `base` cases, scaled by SECURITY_RUNS. */
export const runs = (base: number) => Math.max(1, Math.round(base * factor));
