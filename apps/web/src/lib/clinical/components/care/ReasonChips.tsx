/** Why something was not done (a care task, a dose): one reason among a list, as big chips for a tablet. */
import { Chip, Group, Stack, Text } from '@mantine/core';

export function ReasonChips<R extends string>({
  label,
  reasons,
  value,
  onChange,
  labelOf,
  error,
}: {
  label: string;
  reasons: readonly R[];
  value: R | null;
  onChange: (value: R) => void;
  labelOf: (reason: R) => string;
  error?: string | undefined;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Chip.Group multiple={false} value={value} onChange={(next) => onChange(next as R)}>
        <Group gap="xs">
          {reasons.map((r) => (
            <Chip key={r} value={r} size="md" color="orange">
              {labelOf(r)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
