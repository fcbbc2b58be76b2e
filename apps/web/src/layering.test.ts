import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** DESIGN §3: imports flow one way — lib and stores never reach into app or features; features do not import
 * each other's internals (what two features share lives in lib) nor the shell in app/ (issue 36). */
const SRC = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1] ?? '')),
  );
}

describe('the web app layout', () => {
  const files = sources(SRC);

  it('keeps lib and stores free of app and features', () => {
    const wrong = files
      .filter((f) => /^(lib|stores)\//.test(relative(SRC, f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => /^(app|features)\//.test(i))
          .map((i) => `${relative(SRC, f)} → ${i}`),
      );
    expect(wrong).toEqual([]);
  });

  it("keeps every feature out of the others' folders", () => {
    const wrong = files
      .map((f) => [relative(SRC, f), /^features\/([^/]+)\//.exec(relative(SRC, f))?.[1]] as const)
      .filter(([, feature]) => feature)
      .flatMap(([f, feature]) =>
        importsOf(join(SRC, f))
          .filter((i) => i.startsWith('features/') && !i.startsWith(`features/${feature}/`))
          .map((i) => `${f} → ${i}`),
      );
    expect(wrong).toEqual([]);
  });

  it('keeps features out of the shell in app/ (what they need from it lives in lib)', () => {
    const wrong = files
      .filter((f) => relative(SRC, f).startsWith('features/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i.startsWith('app/'))
          .map((i) => `${relative(SRC, f)} → ${i}`),
      );
    expect(wrong).toEqual([]);
  });
});
