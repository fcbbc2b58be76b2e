/** The page header and the error state every data page uses (DESIGN §6: loading, empty, error). */
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from './api-client';

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Title order={2}>{title}</Title>
        {subtitle && <Text c="dimmed">{subtitle}</Text>}
      </Stack>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}

export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('states.loadError')} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{isApiError(error) ? error.message : t('states.loadErrorHint')}</Text>
        {onRetry && (
          <Button
            size="xs"
            variant="white"
            color="red"
            leftSection={<IconRefresh size={14} />}
            onClick={onRetry}
          >
            {t('actions.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** The "from–to of total" text of a paginated table. */
export function usePaginationText() {
  const { t } = useTranslation('common');
  return ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
    t('table.pagination', { from, to, total: totalRecords });
}

/**
 * A detail page until its query has data: skeletons (a title line, then one block a height) while loading, the
 * load error with "Retry" after a failure. Use as
 * `if (query.isPending || query.isError) return <DetailQueryState query={query} blocks={[110, 240]} />;`.
 */
export function DetailQueryState({
  query,
  blocks,
  titleWidth = '50%',
  testId,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  /** Heights of the skeleton blocks under the title line. */
  blocks: readonly number[];
  titleWidth?: string;
  testId?: string;
}) {
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Stack gap="md" data-testid={testId}>
      <Skeleton h={40} w={titleWidth} />
      {blocks.map((height, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
        <Skeleton key={index} h={height} />
      ))}
    </Stack>
  );
}

/** A labelled value of a detail page: the label small, dimmed and upper-case above the value. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}
