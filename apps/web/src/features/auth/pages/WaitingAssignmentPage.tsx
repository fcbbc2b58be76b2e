/** A signed-in account without any hospital: waiting for an administrator (no patient data). */
import { Button, Center, Group, Image, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglass, IconLogout, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshUser } from '../../../lib/profile';
import { logout } from '../../../lib/session';
import { useUserStore } from '../../../stores/user';

export default function WaitingAssignmentPage() {
  const { t } = useTranslation('auth');
  const user = useUserStore((state) => state.user);
  const [checking, setChecking] = useState(false);
  return (
    <Center mih="100vh" p="md" data-testid="waiting-assignment">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={520} w="100%">
        <Stack align="center" ta="center" gap="md">
          <Image src="/favicon.svg" alt="" w={48} h={48} />
          <ThemeIcon size={56} radius={28} variant="light" color="yellow">
            <IconHourglass size={30} />
          </ThemeIcon>
          <Title order={3}>{t('waiting.title')}</Title>
          <Text>{t('waiting.message', { email: user?.email ?? '' })}</Text>
          <Text c="dimmed" size="sm">
            {t('waiting.hint')}
          </Text>
          <Group>
            <Button
              variant="default"
              leftSection={<IconRefresh size={18} />}
              loading={checking}
              onClick={async () => {
                setChecking(true);
                await refreshUser();
                setChecking(false);
              }}
            >
              {t('waiting.check')}
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconLogout size={18} />}
              onClick={() => logout()}
            >
              {t('lock.signOut')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
