/**
 * A NEWS2 score with its colour (green low, yellow a single red parameter, orange medium, red high): the score,
 * and in words the clinical response due; "partial" when parameters were missing (it can only under-score).
 */
import type { News2Risk } from '@greensen/shared/domain/news2';
import { news2Colour } from '@greensen/shared/domain/news2';
import { Badge, type BadgeProps, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function News2Badge({
  score,
  risk,
  complete = true,
  size = 'lg',
  testId,
  strings = 'care',
}: {
  score: number;
  risk: News2Risk;
  complete?: boolean;
  size?: BadgeProps['size'];
  testId?: string;
  /**
   * Where its words are: the care strings (`news2.*`), or the nurse dashboard's first screen, which does not load
   * them (`nurse.news2.*` of `dashboard`).
   */
  strings?: 'care' | 'dashboard';
}) {
  const { t: tr } = useTranslation(strings);
  const t = (key: string, params?: Record<string, unknown>) =>
    tr(strings === 'care' ? key : `nurse.${key}`, params ?? {});
  const colour = news2Colour(risk);
  return (
    <Tooltip label={t(`news2.risk.${risk}`)}>
      <Badge
        color={colour}
        variant={colour === 'green' ? 'light' : 'filled'}
        autoContrast
        size={size}
        data-testid={testId}
        data-risk={risk}
        // The score must always be read whole (never "NEWS2 …" in a narrow column): the label wraps instead.
        styles={{
          root: {
            height: 'auto',
            minHeight: 'var(--badge-height)',
            flexShrink: 0,
            fontVariantNumeric: 'tabular-nums',
          },
          label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 },
        }}
      >
        {complete ? t('news2.badge', { score }) : t('news2.badgePartial', { score })}
      </Badge>
    </Tooltip>
  );
}
