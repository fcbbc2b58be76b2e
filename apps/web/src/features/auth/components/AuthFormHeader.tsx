import { Text, Title } from '@mantine/core';

/** Title and one-line explanation at the top of a signed-out form (login, registration, forgot password). */
export function AuthFormHeader({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div>
      <Title order={3}>{title}</Title>
      <Text c="dimmed" size="sm">
        {subtitle}
      </Text>
    </div>
  );
}
