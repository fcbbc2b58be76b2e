import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 37: dates and times are entered as the language writes them, never in a native field (which shows
 * "12/06/2026, 05:50 PM" to a French user on an English browser) nor the kit's pickers set up elsewhere: every
 * date, date-and-time and time field of the app is lib/date-field's.
 */
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const NATIVE = /type=["'{]+\s*["']?(time|date|datetime-local)["']/;
const KIT = /\b(TimeInput|DateInput|DateTimePicker|DatePickerInput|TimePicker)\b/;

describe('date and time fields', () => {
  it('are never native inputs, and the kit’s pickers are used through lib/date-field only', () => {
    const wrong = sources(SRC).flatMap((file) => {
      const path = relative(SRC, file);
      return readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path}:${i + 1}` }))
        .filter(({ line }) => NATIVE.test(line) || (path !== 'lib/date-field.tsx' && KIT.test(line)))
        .map(({ at, line }) => `${at}: ${line.trim()}`);
    });
    expect(wrong).toEqual([]);
  });
});
