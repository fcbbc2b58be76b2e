/**
 * A triage level's target delay is written as every duration of the UI (issue 25): the waiting lists show
 * "4 h" waited, so the target of a level 5 reads "Délai cible : 4 h", never "240 min" beside it.
 */
import { describe, expect, it } from 'vitest';
import { formatMinutes } from '../../format';
import { i18n } from '../../i18n';
import { targetDelayLabel } from './TriageLevelBadge';

describe('a triage target delay', () => {
  const t = i18n.getFixedT('fr');

  it('writes hours and minutes as the waited time does', () => {
    expect(targetDelayLabel(240, t)).toBe(`Délai cible : ${formatMinutes(240)}`);
    expect(formatMinutes(240)).toBe('4 h');
    expect(targetDelayLabel(90, t)).toBe('Délai cible : 1 h 30');
    expect(targetDelayLabel(20, t)).toBe('Délai cible : 20 min');
  });

  it('says immediate care and no target in words', () => {
    expect(targetDelayLabel(0, t)).toBe('Prise en charge immédiate');
    expect(targetDelayLabel(null, t)).toBe('Pas de délai cible');
    expect(targetDelayLabel(60, i18n.getFixedT('en'))).toBe('Target delay: 1 h');
  });
});
