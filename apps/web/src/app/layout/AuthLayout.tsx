/**
 * Layout of the public and lock pages: centred card with the logo, language and colour switches. When the
 * browser is idle it fetches the signed-in shell and the dashboard, which the user opens next.
 */
import { Box, Center, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { preloadWhenIdle } from '../../lib/preload';
import { pageLoaders } from '../page-loaders';
import { loadShell } from '../shell-loader';
import { ColorModeToggle, LanguageToggle } from './AuthSwitches';

export function AuthLayout() {
  const { t } = useTranslation('auth');
  useEffect(() => preloadWhenIdle([loadShell, pageLoaders.dashboard]), []);
  return (
    <Box mih="100vh" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))">
      <Group justify="flex-end" p="md" gap="xs">
        <ColorModeToggle />
        <LanguageToggle />
      </Group>
      <Center px="md" pb="xl">
        <Stack w="100%" maw={440} gap="lg">
          <Stack align="center" gap={4}>
            <Image src="/favicon.svg" alt="" w={56} h={56} />
            <Title order={2} c="greensen">
              Greensen
            </Title>
            <Text c="dimmed" size="sm" ta="center">
              {t('layout.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" radius="md" p="xl">
            <Outlet />
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
