/**
 * The fields of a patient record (registration and edit). The values are turned into the API body by
 * `toPatientBody` and validated with the server's zod schema before any call.
 */
import {
  BLOOD_GROUPS,
  PATIENT_LANGUAGES,
  type TPatient,
  type TPatientCreate,
  ZPatientCreate,
  ZPatientUpdate,
} from '@greensen/shared/contracts/patients';
import {
  Checkbox,
  Fieldset,
  Group,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ClinicalNumberInput } from '../../clinical-number-input';
import { DateField } from '../../date-field';
import { issueMessage, validateWith } from '../../zod-form';

export interface PatientFormValues {
  first_name: string;
  last_name: string;
  sex: 'F' | 'M' | '';
  birth_mode: 'date' | 'age';
  birth_date: string;
  estimated_age: number | string | null;
  phone: string;
  /** For appointment reminders (issue 22). */
  email: string;
  /** The language of reminders; '' is "not set" (French). */
  preferred_language: '' | 'fr' | 'en';
  address: string;
  national_id: string;
  emergency_contact_name: string;
  emergency_contact_phone: string;
  blood_group: string;
  allergies: string[];
  /** "No known allergy": the patient was asked and has none (with an empty list). */
  no_known_allergy: boolean;
  insurance_provider: string;
  insurance_number: string;
  [key: string]: unknown;
}

export const EMPTY_PATIENT: PatientFormValues = {
  first_name: '',
  last_name: '',
  sex: '',
  birth_mode: 'date',
  birth_date: '',
  estimated_age: '',
  phone: '',
  email: '',
  preferred_language: '',
  address: '',
  national_id: '',
  emergency_contact_name: '',
  emergency_contact_phone: '',
  blood_group: '',
  allergies: [],
  no_known_allergy: false,
  insurance_provider: '',
  insurance_number: '',
};

export function valuesFromPatient(patient: TPatient): PatientFormValues {
  return {
    first_name: patient.first_name,
    last_name: patient.last_name,
    sex: patient.sex,
    birth_mode: patient.birth_date_estimated ? 'age' : 'date',
    birth_date: patient.birth_date ?? '',
    estimated_age: patient.birth_date_estimated && patient.age !== null ? patient.age : '',
    phone: patient.phone ?? '',
    email: patient.email ?? '',
    preferred_language: patient.preferred_language ?? '',
    address: patient.address ?? '',
    national_id: patient.national_id ?? '',
    emergency_contact_name: patient.emergency_contact_name ?? '',
    emergency_contact_phone: patient.emergency_contact_phone ?? '',
    blood_group: patient.blood_group ?? '',
    allergies: [...patient.allergies],
    no_known_allergy: patient.allergies_recorded && patient.allergies.length === 0,
    insurance_provider: patient.insurance_provider ?? '',
    insurance_number: patient.insurance_number ?? '',
  };
}

const orNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/** The registration body of the form values (before validation). */
export function toPatientBody(values: PatientFormValues): TPatientCreate {
  const age =
    values.estimated_age === '' || values.estimated_age === null ? null : Number(values.estimated_age);
  return {
    first_name: values.first_name,
    last_name: values.last_name,
    sex: values.sex as 'F' | 'M',
    birth_date: values.birth_mode === 'date' ? orNull(values.birth_date) : null,
    estimated_age: values.birth_mode === 'age' ? age : null,
    phone: orNull(values.phone),
    email: orNull(values.email),
    preferred_language: values.preferred_language === '' ? null : values.preferred_language,
    address: orNull(values.address),
    national_id: orNull(values.national_id),
    emergency_contact_name: orNull(values.emergency_contact_name),
    emergency_contact_phone: orNull(values.emergency_contact_phone),
    blood_group: (orNull(values.blood_group) as TPatientCreate['blood_group']) ?? null,
    allergies: values.allergies,
    // Asked: a list, or "no known allergy" ticked; neither is "not asked" (issue 25).
    allergies_recorded: values.allergies.length > 0 || values.no_known_allergy,
    insurance_provider: orNull(values.insurance_provider),
    insurance_number: orNull(values.insurance_number),
  };
}

/** Form field of an error path ('allergies.0' → 'allergies'). */
const fieldOf = (path: string) => path.split('.')[0] ?? path;

export function validateCreate(form: UseFormReturnType<PatientFormValues>) {
  const body = toPatientBody(form.getValues());
  const parsed = validateWith(ZPatientCreate, body, form, (path) =>
    fieldOf(path) === 'birth_date' && form.getValues().birth_mode === 'age' ? 'estimated_age' : fieldOf(path),
  );
  return parsed ? body : null;
}

export function validateUpdate(form: UseFormReturnType<PatientFormValues>) {
  const full = toPatientBody(form.getValues());
  const body = {
    ...full,
    birth_date: full.birth_date ?? undefined,
    estimated_age: full.estimated_age ?? undefined,
  };
  if (body.birth_date === undefined && body.estimated_age === undefined) {
    form.setFieldError(
      form.getValues().birth_mode === 'age' ? 'estimated_age' : 'birth_date',
      validateCreateMessage(),
    );
    return null;
  }
  return validateWith(ZPatientUpdate, body, form, fieldOf) ? body : null;
}

function validateCreateMessage(): string {
  const result = ZPatientCreate.safeParse({ first_name: 'a', last_name: 'b', sex: 'F' });
  if (result.success) return '';
  return validateWithMessage(result.error.issues.find((issue) => issue.path[0] === 'birth_date'));
}

function validateWithMessage(issue: Parameters<typeof issueMessage>[0] | undefined): string {
  return issue ? issueMessage(issue) : '';
}

export function PatientFields({ form }: { form: UseFormReturnType<PatientFormValues> }) {
  const { t } = useTranslation('patients');
  const values = form.getValues();
  const birthMode = values.birth_mode;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Stack gap="md">
      <Fieldset legend={t('form.identity')} variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('form.last_name')} required withAsterisk {...form.getInputProps('last_name')} />
          <TextInput
            label={t('form.first_name')}
            required
            withAsterisk
            {...form.getInputProps('first_name')}
          />
          <Radio.Group label={t('form.sex')} required withAsterisk {...form.getInputProps('sex')}>
            <Group gap="lg" mt={8}>
              <Radio value="F" label={t('sex.F')} />
              <Radio value="M" label={t('sex.M')} />
            </Group>
          </Radio.Group>
          <TextInput label={t('form.national_id')} {...form.getInputProps('national_id')} />
        </SimpleGrid>
        <Stack gap={6} mt="sm">
          <Text size="sm" fw={500}>
            {t('form.birth')}
          </Text>
          <SegmentedControl
            aria-label={t('form.birth')}
            data={[
              { value: 'date', label: t('form.birthModeDate') },
              { value: 'age', label: t('form.birthModeAge') },
            ]}
            {...form.getInputProps('birth_mode')}
            style={{ alignSelf: 'flex-start' }}
          />
          {birthMode === 'date' ? (
            <DateField
              label={t('form.birth_date')}
              max={today}
              min="1900-01-01"
              required
              withAsterisk
              {...form.getInputProps('birth_date')}
            />
          ) : (
            <ClinicalNumberInput
              label={t('form.estimated_age')}
              description={t('form.estimated_age_hint')}
              min={0}
              max={130}
              decimals={0}
              required
              withAsterisk
              {...form.getInputProps('estimated_age')}
            />
          )}
        </Stack>
      </Fieldset>
      <Fieldset legend={t('form.contact')} variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('form.phone')} type="tel" {...form.getInputProps('phone')} />
          <TextInput label={t('form.address')} {...form.getInputProps('address')} />
          <TextInput
            label={t('form.email')}
            description={t('form.email_hint')}
            type="email"
            autoComplete="off"
            {...form.getInputProps('email')}
          />
          <Select
            label={t('form.preferred_language')}
            description={t('form.preferred_language_hint')}
            data={PATIENT_LANGUAGES.map((code) => ({ value: code, label: t(`form.languages.${code}`) }))}
            clearable
            {...form.getInputProps('preferred_language')}
            value={values.preferred_language || null}
            onChange={(value) =>
              form.setFieldValue(
                'preferred_language',
                (value ?? '') as PatientFormValues['preferred_language'],
              )
            }
          />
          <TextInput
            label={t('form.emergency_contact_name')}
            {...form.getInputProps('emergency_contact_name')}
          />
          <TextInput
            label={t('form.emergency_contact_phone')}
            type="tel"
            {...form.getInputProps('emergency_contact_phone')}
          />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend={t('form.medical')} variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('form.blood_group')}
            data={BLOOD_GROUPS.map((group) => ({ value: group, label: group }))}
            clearable
            {...form.getInputProps('blood_group')}
          />
          <Stack gap={6}>
            <TagsInput
              label={t('form.allergies')}
              description={t('form.allergies_hint')}
              clearable
              {...form.getInputProps('allergies')}
            />
            <Checkbox
              label={t('form.allergies_none_known')}
              description={t('form.allergies_not_asked_hint')}
              disabled={values.allergies.length > 0}
              {...form.getInputProps('no_known_allergy', { type: 'checkbox' })}
              checked={values.allergies.length === 0 && values.no_known_allergy}
            />
          </Stack>
          <TextInput label={t('form.insurance_provider')} {...form.getInputProps('insurance_provider')} />
          <TextInput label={t('form.insurance_number')} {...form.getInputProps('insurance_number')} />
        </SimpleGrid>
      </Fieldset>
    </Stack>
  );
}
