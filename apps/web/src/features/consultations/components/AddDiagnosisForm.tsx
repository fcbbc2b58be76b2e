/**
 * Adds a diagnosis: an ICD-10 code picked from the search, or a free text marked "non codé / uncoded";
 * primary or secondary (a new primary makes the current one secondary — said before adding), confirmed or
 * suspected, notes. Validated with the server's schema; the server's field errors shown as returned.
 */
import type { TDiagnosis } from '@greensen/shared/contracts/consultations';
import { ZDiagnosisCreate } from '@greensen/shared/contracts/consultations';
import type { TIcd10Entry } from '@greensen/shared/contracts/icd10';
import type { DiagnosisCertainty, DiagnosisRank } from '@greensen/shared/domain/consultations';
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { Icd10Search } from '../../../lib/clinical/components/Icd10Search';
import { serverErrorsFromBody } from '../../../lib/field-errors';
import { toast } from '../../../lib/toast';
import { zodFieldErrors } from '../../../lib/zod-form';
import { useAddDiagnosis } from '../api/diagnoses';

type Choice = { kind: 'code'; entry: TIcd10Entry } | { kind: 'free'; text: string } | null;

export function AddDiagnosisForm({
  consultationId,
  currentPrimary,
}: {
  consultationId: string;
  currentPrimary: TDiagnosis | null;
}) {
  const { t } = useTranslation('consultations');
  const add = useAddDiagnosis(consultationId);
  const [choice, setChoice] = useState<Choice>(null);
  const [rank, setRank] = useState<DiagnosisRank | null>(null);
  const [certainty, setCertainty] = useState<DiagnosisCertainty>('confirmed');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const effectiveRank: DiagnosisRank = rank ?? (currentPrimary ? 'secondary' : 'primary');

  function clear() {
    setChoice(null);
    setRank(null);
    setCertainty('confirmed');
    setNotes('');
    setErrors({});
  }

  async function submit() {
    const body = {
      icd_code: choice?.kind === 'code' ? choice.entry.code : null,
      free_text: choice?.kind === 'free' ? choice.text : null,
      rank: effectiveRank,
      certainty,
      notes: notes.trim() || null,
    };
    const parsed = ZDiagnosisCreate.safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      await add.mutateAsync(parsed.data);
      toast({
        kind: 'success',
        title: t('diagnoses.added'),
        description: choice?.kind === 'code' ? `${choice.entry.code} ${choice.entry.label}` : body.free_text,
      });
      clear();
    } catch (error) {
      if (isApiError(error) && error.status === 400) {
        const { fields, general } = serverErrorsFromBody(error.body);
        setErrors({ ...fields, ...(general ? { non_field_errors: general } : {}) });
      } else if (isApiError(error) && error.status !== 403 && error.status !== 404) {
        setErrors({ non_field_errors: error.message });
      }
    }
  }

  const codeError = errors.icd_code ?? errors.free_text ?? null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('diagnoses.addTitle')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Text fw={600}>{t('diagnoses.addTitle')}</Text>
          {choice ? (
            <Group gap="xs" wrap="nowrap" data-testid="diagnosis-choice">
              {choice.kind === 'code' ? (
                <>
                  <Badge variant="outline" radius="sm">
                    {choice.entry.code}
                  </Badge>
                  <Text size="sm" style={{ flex: 1 }}>
                    {choice.entry.label}
                  </Text>
                </>
              ) : (
                <>
                  <Badge variant="outline" color="orange" radius="sm">
                    {t('diagnoses.uncoded')}
                  </Badge>
                  <TextInput
                    aria-label={t('diagnoses.freeText')}
                    value={choice.text}
                    onChange={(event) => setChoice({ kind: 'free', text: event.currentTarget.value })}
                    style={{ flex: 1 }}
                    error={codeError}
                  />
                </>
              )}
              <CloseButton aria-label={t('diagnoses.changeChoice')} onClick={() => setChoice(null)} />
            </Group>
          ) : (
            <Icd10Search
              error={codeError}
              onPick={(entry) => setChoice({ kind: 'code', entry })}
              onFreeText={(text) => setChoice({ kind: 'free', text })}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t('diagnoses.rank')}
              </Text>
              <SegmentedControl
                fullWidth
                value={effectiveRank}
                onChange={(value) => setRank(value as DiagnosisRank)}
                data={[
                  { value: 'primary', label: t('rank.primary') },
                  { value: 'secondary', label: t('rank.secondary') },
                ]}
              />
            </div>
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t('diagnoses.certainty')}
              </Text>
              <SegmentedControl
                fullWidth
                value={certainty}
                onChange={(value) => setCertainty(value as DiagnosisCertainty)}
                data={[
                  { value: 'confirmed', label: t('certainty.confirmed') },
                  { value: 'suspected', label: t('certainty.suspected') },
                ]}
              />
            </div>
          </SimpleGrid>
          {effectiveRank === 'primary' && currentPrimary && (
            <Text size="sm" c="orange">
              {t('diagnoses.demoteNotice', { label: currentPrimary.icd_code ?? currentPrimary.label })}
            </Text>
          )}
          <TextInput
            label={t('diagnoses.notes')}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            error={errors.notes}
          />
          {errors.non_field_errors && (
            <Alert color="red" role="alert">
              {errors.non_field_errors}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              type="submit"
              leftSection={<IconPlus size={16} />}
              loading={add.isPending}
              disabled={!choice}
            >
              {t('diagnoses.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
