/**
 * The maintenance switch (spec §4; the README promised it in the app): while it is on, every page of every
 * user shows the maintenance page — the administrator's too, where an administrator can end it.
 */
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useMaintenance, useSetMaintenance } from '../../../lib/maintenance';
import { DetailQueryState } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';

export function MaintenancePanel() {
  const { t } = useTranslation('admin');
  const query = useMaintenance();
  const set = useSetMaintenance();
  const [confirming, setConfirming] = useState(false);
  if (query.isPending || query.isError) return <DetailQueryState query={query} blocks={[120]} />;
  const state = query.data;
  async function switchTo(enabled: boolean) {
    try {
      await set.mutateAsync(enabled);
      toast({
        kind: enabled ? 'warning' : 'success',
        title: t(enabled ? 'maintenance.on' : 'maintenance.off'),
      });
    } catch (error) {
      toast({
        kind: 'error',
        title: t('maintenance.failed'),
        description: isApiError(error) ? error.message : undefined,
      });
    } finally {
      setConfirming(false);
    }
  }
  return (
    <Paper withBorder radius="md" p="md" data-testid="maintenance-panel">
      <Stack gap="sm">
        <Group gap="xs">
          <IconTool size={20} />
          <Text fw={600}>{t('maintenance.title')}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t(state.enabled ? 'maintenance.stateOn' : 'maintenance.stateOff')}
        </Text>
        {state.forced_by_environment && <Alert color="yellow">{t('maintenance.forced')}</Alert>}
        {confirming ? (
          <Alert color="orange" title={t('maintenance.confirmTitle')} data-testid="maintenance-confirm">
            <Stack gap="sm">
              <Text size="sm">{t('maintenance.confirmText')}</Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(false)}>
                  {t('common:actions.cancel')}
                </Button>
                <Button color="orange" loading={set.isPending} onClick={() => void switchTo(true)}>
                  {t('maintenance.confirmYes')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Group>
            {state.enabled ? (
              <Button
                color="green"
                loading={set.isPending}
                disabled={state.forced_by_environment}
                onClick={() => void switchTo(false)}
              >
                {t('maintenance.end')}
              </Button>
            ) : (
              <Button color="orange" variant="light" onClick={() => setConfirming(true)}>
                {t('maintenance.start')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
