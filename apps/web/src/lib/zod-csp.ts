/**
 * The content security policy forbids eval. Without this, zod probes `new Function` when the first object schema
 * is built — a CSP violation report on every page (found by e2e/xss.spec.ts) — before doing what `jitless` does
 * anyway. zod reads its settings from this global, so it is set before zod loads: main.tsx imports this first.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
