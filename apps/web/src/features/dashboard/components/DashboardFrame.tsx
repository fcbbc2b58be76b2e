/**
 * One dashboard of spec §6: title, subtitle, primary action, refresh interval and tabs. Its refresh timer
 * (in the timer registry) invalidates the dashboard queries (keys under ['dashboard', kind]) every
 * refreshInterval while it is mounted. Dashboards with content (doctor, secretary) pass their primary
 * action and tab panels; the others show what each tab will hold.
 */
import type { Language } from '@greensen/shared/domain/constants';
import type { DashboardConfig } from '@greensen/shared/domain/dashboards';
import { Badge, Button, Group, Paper, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconClockHour4, IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat } from '../../../lib/format';
import { registerInterval } from '../../../lib/timers';

export function dashboardTimerName(kind: string): string {
  return `dashboard:${kind}`;
}

export function dashboardQueryKey(kind: string, hospitalId: string | null) {
  return ['dashboard', kind, hospitalId] as const;
}

/** Starts the periodic refresh of a dashboard; stopped on unmount (leaving home) or by logout. */
export function useDashboardRefresh(config: DashboardConfig): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      registerInterval(
        dashboardTimerName(config.kind),
        () => void queryClient.invalidateQueries({ queryKey: ['dashboard', config.kind] }),
        config.refreshInterval,
      ),
    [config.kind, config.refreshInterval, queryClient],
  );
}

export function DashboardFrame({
  config,
  lang,
  hospitalId,
  primaryAction,
  panels,
}: {
  config: DashboardConfig;
  lang: Language;
  hospitalId: string | null;
  /** The primary action button; without it the action is shown disabled ('coming soon'). */
  primaryAction?: ReactNode;
  /** Content of the tabs, by tab id; a tab without content describes what it will hold. */
  panels?: Partial<Record<string, ReactNode>>;
}) {
  const { t, i18n } = useTranslation('dashboard');
  useDashboardRefresh(config);
  // The data arrives with the clinical issues; for now the query records when the dashboard refreshed.
  const refreshed = useQuery({
    queryKey: dashboardQueryKey(config.kind, hospitalId),
    queryFn: async () => ({ refreshedAt: new Date() }),
    staleTime: 0,
  });
  const seconds = Math.round(config.refreshInterval / 1000);
  const time =
    refreshed.data &&
    dateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(
      refreshed.data.refreshedAt,
    );

  return (
    <Stack gap="md" data-testid={`dashboard-${config.kind}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>{config.title[lang]}</Title>
          <Text c="dimmed">{config.subtitle[lang]}</Text>
        </div>
        <Group gap="xs">
          <Tooltip label={t('refresh.every', { seconds })}>
            <Badge
              variant="light"
              color="gray"
              leftSection={<IconClockHour4 size={14} />}
              size="lg"
              tt="none"
            >
              {t('refresh.short', { seconds })}
            </Badge>
          </Tooltip>
          {primaryAction}
          {config.primaryAction && !primaryAction && (
            <Tooltip label={t('comingSoon')}>
              <span>
                <Button leftSection={<IconPlayerPlay size={18} />} disabled data-disabled>
                  {config.primaryAction[lang]}
                </Button>
              </span>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Paper withBorder radius="md" p={0}>
        <Tabs defaultValue={config.allowedTabs[0] ?? null} keepMounted={false}>
          <Tabs.List px="sm" style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
            {config.allowedTabs.map((tab) => (
              <Tabs.Tab key={tab} value={tab}>
                {t(`tabs.${tab}.label`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {config.allowedTabs.map((tab) =>
            panels?.[tab] !== undefined ? (
              <Tabs.Panel key={tab} value={tab}>
                {panels[tab]}
              </Tabs.Panel>
            ) : (
              <Tabs.Panel key={tab} value={tab} p="lg">
                <Stack gap="xs">
                  <Text fw={600}>{t(`tabs.${tab}.label`)}</Text>
                  <Text c="dimmed">{t(`tabs.${tab}.description`)}</Text>
                  {/* Said plainly: the tab is empty because its module is not in service yet (issue 25). */}
                  <Text size="sm" data-testid="tab-pending">
                    {t('tabs.pending')}
                  </Text>
                  <Group gap={6} mt="xs">
                    <IconRefresh size={14} />
                    <Text size="xs" c="dimmed">
                      {time ? t('refresh.last', { time }) : t('refresh.pending')}
                    </Text>
                  </Group>
                </Stack>
              </Tabs.Panel>
            ),
          )}
        </Tabs>
      </Paper>
      {panels && (
        <Group gap={6}>
          <IconRefresh size={14} />
          <Text size="xs" c="dimmed" data-testid="dashboard-refreshed">
            {time ? t('refresh.last', { time }) : t('refresh.pending')}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
