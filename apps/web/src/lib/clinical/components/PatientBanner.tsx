/** The patient at the top of a visit, triage or consultation page: name, record number, age, allergies. */
import { Anchor, Badge, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime } from '../../format';
import { translate } from '../../i18n';
import { useLocalizedPath } from '../../use-localized-path';
import { AllergyAlert, AllergyBadge } from './AllergyBadge';
import { ageLabel, sexLabel } from './patient-format';

export interface PatientRefLike {
  id: string;
  record_number: string;
  full_name: string;
  sex: string;
  age: number | null;
  allergies: readonly string[];
  allergies_recorded: boolean;
  /** Set when the patient died during a stay (issue 17): shown wherever the patient appears. */
  deceased_at?: string | null;
}

/** "Décédé(e) le 25/11/2026 à 09:40", in dark, beside the name. */
export function DeceasedBadge({
  deceasedAt,
  size = 'sm',
}: {
  deceasedAt?: string | null;
  size?: 'xs' | 'sm';
}) {
  if (!deceasedAt) return null;
  return (
    <Badge color="dark" variant="filled" size={size} tt="none" data-testid="deceased-badge">
      {translate('patients:deceasedOn', { date: formatDateTime(deceasedAt) })}
    </Badge>
  );
}

export function PatientBanner({ patient, estimated }: { patient: PatientRefLike; estimated?: boolean }) {
  const to = useLocalizedPath();
  return (
    <Paper withBorder radius="md" p="md" data-testid="patient-banner">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="light">
            <IconUser size={22} />
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Anchor component={Link} to={to(`/patients/${patient.id}`)} fw={700} size="lg">
                {patient.full_name}
              </Anchor>
              <DeceasedBadge deceasedAt={patient.deceased_at} />
            </Group>
            <Text size="sm" c="dimmed">
              {patient.record_number} · {sexLabel(patient.sex)} · {ageLabel(patient.age, estimated)}
            </Text>
          </div>
        </Group>
        <AllergyAlert allergies={patient.allergies} recorded={patient.allergies_recorded} />
      </Stack>
    </Paper>
  );
}

/** A compact patient cell for tables: name, record number and the allergy badge. */
export function PatientCell({
  patient,
}: {
  patient: Omit<PatientRefLike, 'sex' | 'age' | 'allergies_recorded'> & { age?: number | null };
}) {
  return (
    <Group gap={6} wrap="wrap">
      <div style={{ minWidth: 0 }}>
        {/* The whole name, wrapped if needed: a truncated name can match two patients. */}
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {patient.full_name}
        </Text>
        <Text size="xs" c="dimmed">
          {patient.record_number}
        </Text>
      </div>
      <AllergyBadge allergies={patient.allergies} />
      <DeceasedBadge deceasedAt={patient.deceased_at} size="xs" />
    </Group>
  );
}
