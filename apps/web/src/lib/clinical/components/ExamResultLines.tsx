/** The entered results of an order as short lines: label, value and unit, flag, reference range. */
import type { TExamResultLine } from '@greensen/shared/contracts/exams';
import { REFERENCE_ABSENT } from '@greensen/shared/domain/exams';
import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { uiLanguage } from '../../i18n';
import { ExamFlagBadge } from './ExamBadges';
import { lineValue, localized, referenceLabel } from './exam-format';

export function ExamResultLines({
  lines,
  onlyFlagged = false,
  max,
}: {
  lines: readonly TExamResultLine[];
  /** Only the values with a flag (summaries); says so when none is flagged. */
  onlyFlagged?: boolean;
  /** At most this many lines, then "+N". */
  max?: number;
}) {
  const { t } = useTranslation('exams');
  const lang = uiLanguage();
  const shown = onlyFlagged ? lines.filter((l) => l.flag) : lines;
  if (shown.length === 0) {
    return onlyFlagged && lines.length > 0 ? (
      <Text size="xs" c="dimmed">
        {t('results.allNormal')}
      </Text>
    ) : null;
  }
  const visible = max ? shown.slice(0, max) : shown;
  return (
    <Stack gap={2}>
      {visible.map((line) => (
        <Group key={line.key} gap={4} wrap="wrap" data-testid={`result-line-${line.key}`}>
          <Text size="xs" c="dimmed">
            {localized(line, lang)}
          </Text>
          <Text
            size="xs"
            fw={line.flag ? 700 : 500}
            c={line.flag ? 'red' : undefined}
            style={{ whiteSpace: 'nowrap' }}
          >
            {lineValue(line, lang)}
          </Text>
          <ExamFlagBadge flag={line.flag} normallyAbsent={line.reference === REFERENCE_ABSENT} />
          {line.reference && (
            <Text size="xs" c="dimmed">
              ({t('results.referenceShort', { reference: referenceLabel(line.reference, t, lang) })})
            </Text>
          )}
        </Group>
      ))}
      {max && shown.length > max && (
        <Text size="xs" c="dimmed">
          {t('results.more', { count: shown.length - max })}
        </Text>
      )}
    </Stack>
  );
}
