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
});
