/** A triage level chip in its colour (FRENCH 1…5 or SATS colours). */
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMinutes } from '../../format';
import { NEVER_CUT } from '../../theme';

export const LEVEL_COLORS: Record<string, string> = {
  '1': 'red',
  '2': 'orange',
  '3A': 'yellow',
  '3B': 'lime',
  '4': 'green',
  '5': 'blue',
  red: 'red',
  orange: 'orange',
  yellow: 'yellow',
  green: 'green',
  blue: 'blue',
};

/** Dark text on the light chips. */
const DARK_TEXT = new Set(['3A', '3B', 'yellow']);

export function levelLabel(level: string, t: (key: string) => string): string {
  return /^[0-9]/.test(level) ? level : t(`triage:levels.${level}`);
}

/**
 * A triage level's target delay as a sentence, its duration written as every other duration of the UI
 * (`formatMinutes`: '4 h', '1 h 30', '15 min'), never '240 min' beside a wait of '4 h'.
 */
export function targetDelayLabel(
  targetMinutes: number | null,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (targetMinutes === null) return t('triage:target.none');
  if (targetMinutes === 0) return t('triage:target.immediate');
  return t('triage:target.delay', { delay: formatMinutes(targetMinutes) });
}

export function TriageLevelBadge({
  level,
  targetMinutes,
  size = 'md',
}: {
  level: string | null | undefined;
  targetMinutes?: number | null;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
}) {
  const { t } = useTranslation('triage');
  if (!level) {
    return (
      <Tooltip label={t('notTriaged')}>
        <Badge color="gray" variant="outline" size={size} aria-label={t('notTriaged')} miw={36}>
          —
        </Badge>
      </Tooltip>
    );
  }
  const badge = (
    <Badge
      color={LEVEL_COLORS[level] ?? 'gray'}
      variant="filled"
      size={size}
      c={DARK_TEXT.has(level) ? 'dark.9' : undefined}
      data-testid="triage-level"
      miw={36}
      // Never cut the level ("ROU…"): a table column must not shrink the chip below its text.
      styles={NEVER_CUT}
    >
      {levelLabel(level, t)}
    </Badge>
  );
  if (targetMinutes === undefined) return badge;
  return <Tooltip label={targetDelayLabel(targetMinutes, t)}>{badge}</Tooltip>;
}
