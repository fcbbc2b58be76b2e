/** Full-screen start-up loader: logo, product name, message rotating every 2000 ms (spec §2). */
import { type Language, LOADER_MESSAGES, LOADER_ROTATION_MS } from '@greensen/shared/domain/constants';
import { Box, Image, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';

export function StartupLoader({ lang }: { lang: Language }) {
  const messages = LOADER_MESSAGES[lang];
  const [index, setIndex] = useState(0);

  useEffect(() => {
    const handle = setInterval(
      () => setIndex((current) => (current + 1) % messages.length),
      LOADER_ROTATION_MS,
    );
    return () => clearInterval(handle);
  }, [messages.length]);

  return (
    <Box
      pos="fixed"
      inset={0}
      style={{ zIndex: 1000, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      bg="var(--mantine-color-body)"
      data-testid="startup-loader"
      role="status"
      aria-live="polite"
    >
      <Stack align="center" gap="md">
        <Image src="/favicon.svg" alt="" w={88} h={88} />
        <Title order={1} fz={32} c="greensen">
          Greensen
        </Title>
        <Loader size="sm" type="dots" />
        <Text c="dimmed" data-testid="startup-message">
          {messages[index]}
        </Text>
      </Stack>
    </Box>
  );
}
