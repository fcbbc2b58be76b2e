/**
 * /maintenance (no layout): polls the configuration every 60 s and goes to / once maintenance ends. A signed-in
 * administrator, sent here like everyone, ends the maintenance from here.
 */
import { Button, Center, Image, Stack, Text, Title } from '@mantine/core';
import { IconRefresh, IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { configQueryOptions, MAINTENANCE_POLL_MS } from '../../../lib/app-config';
import { useSetMaintenance } from '../../../lib/maintenance';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useAuthStore } from '../../../stores/auth';

export default function MaintenancePage() {
  const { t } = useTranslation('common');
  const to = useLocalizedPath();
  const config = useQuery(configQueryOptions(MAINTENANCE_POLL_MS));
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const isAdmin = usePermissions().groups.includes('admin');
  const end = useSetMaintenance();
  if (config.data && !config.data.maintenance) return <Navigate to={to('/')} replace />;
  return (
    <Center mih="100vh" p="md" data-testid="maintenance-page">
      <Stack align="center" ta="center" maw={520} gap="md">
        <Image src="/favicon.svg" alt="" w={64} h={64} />
        <IconTool size={40} stroke={1.5} />
        <Title order={1} fz={28}>
          {t('maintenance.title')}
        </Title>
        <Text c="dimmed" size="lg">
          {t('maintenance.message')}
        </Text>
        <Text c="dimmed" size="sm">
          {t('maintenance.auto')}
        </Text>
        <Button
          variant="light"
          leftSection={<IconRefresh size={18} />}
          loading={config.isFetching}
          onClick={() => void config.refetch()}
        >
          {t('maintenance.check')}
        </Button>
        {signedIn && isAdmin && (
          <Button
            color="green"
            loading={end.isPending}
            onClick={() => end.mutate(false)}
            data-testid="end-maintenance"
          >
            {t('maintenance.end')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
