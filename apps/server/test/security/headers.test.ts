import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../app.js';

/**
 * Stored XSS defences that do not need a browser (issue 8): the content security policy on every kind of answer,
 * and the lint ban on raw HTML in the web app. The browser side is apps/web/e2e/xss.spec.ts.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let ctx: TestContext;
beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'greensen-csp-'));
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>',
  );
  ctx = await createTestApp({ webDist, appEnv: 'production', publicUrl: 'https://his.example.test' });
});
afterAll(() => ctx?.close());

function directives(header: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

describe('content security policy', () => {
  it('allows no inline or evaluated script on any answer: app shell, API, refusals, errors', async () => {
    const answers = await Promise.all([
      ctx.app.inject('/'),
      ctx.app.inject('/patients/123'),
      ctx.app.inject('/api/health/'),
      ctx.app.inject('/api/patients/'),
      ctx.app.inject('/api/nope/'),
      ctx.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: 'x',
        headers: { 'content-type': 'text/xml' },
      }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 401, 404, 415]);
    for (const [i, res] of answers.entries()) {
      const csp = directives(res.headers['content-security-policy']);
      const scripts = csp.get('script-src') ?? csp.get('default-src');
      if (i < 2) {
        // The app's pages: their own scripts only, no plugins, no foreign base.
        expect(scripts, res.body).toEqual(["'self'"]);
        expect(csp.get('object-src')).toEqual(["'none'"]);
        expect(csp.get('base-uri')).toEqual(["'self'"]);
      } else {
        // API answers (JSON, refusals and errors included): nothing may load or run, even opened as a page.
        expect(csp.get('default-src'), res.body).toEqual(["'none'"]);
        expect(csp.has('script-src')).toBe(false);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(String(res.headers['content-security-policy'])).not.toMatch(
        /unsafe-eval|script-src[^;]*unsafe-inline/,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    }
  });
});

describe('raw HTML in the web app', () => {
  it('is an error for the linter (biome.json)', () => {
    const biome = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as {
      linter: { rules: { security?: Record<string, string> } };
    };
    expect(biome.linter.rules.security).toMatchObject({
      noDangerouslySetInnerHtml: 'error',
      noDangerouslySetInnerHtmlWithChildren: 'error',
    });
  });

  it('is used nowhere in the web sources (no dangerouslySetInnerHTML, innerHTML or document.write)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(tsx?|jsx?)$/.test(name) && !/\.test\./.test(name)) {
          const text = readFileSync(path, 'utf8');
          if (
            /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|document\.write\(|insertAdjacentHTML/.test(
              text,
            )
          )
            offenders.push(path.slice(ROOT.length));
        }
      }
    };
    walk(join(ROOT, 'apps/web/src'));
    expect(offenders).toEqual([]);
  });
});
