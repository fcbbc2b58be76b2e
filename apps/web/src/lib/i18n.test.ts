import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deBefore, i18n } from './i18n';

describe('French typography', () => {
  it('elides "de" before a vowel or an h, not before a consonant', () => {
    expect(deBefore('Esther')).toBe("d'Esther");
    expect(deBefore('Éloïse Kabongo')).toBe("d'Éloïse Kabongo");
    expect(deBefore('Hélène')).toBe("d'Hélène");
    expect(deBefore('Marie')).toBe('de Marie');
  });

  it('applies it where a French string puts a name after "de"', async () => {
    await i18n.changeLanguage('fr');
    i18n.addResource('fr', 'test', 'title', 'Consultation {{patient, de}}');
    expect(i18n.t('test:title', { patient: 'Esther Mwamba' })).toBe("Consultation d'Esther Mwamba");
    expect(i18n.t('test:title', { patient: 'Grâce Mbuyi' })).toBe('Consultation de Grâce Mbuyi');
  });

  it('never writes a bare "de {{name}}" in the French strings (numbers only: "de {{count}}")', () => {
    const dir = join(__dirname, '../locales/fr');
    const bare: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value === 'string') {
        for (const m of value.matchAll(/\bde \{\{(\w+)\}\}/g))
          if (!['count', 'min', 'max', 'limit', 'value', 'days', 'hours', 'minutes'].includes(m[1]!))
            bare.push(path);
      } else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
      walk(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
    expect(bare).toEqual([]);
  });
});
