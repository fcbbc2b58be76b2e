/**
 * The patient field of a clinical form: a select searching patients on the server (debounced, 20 results,
 * "name · record number"), keeping the picked patient in the list whatever the search; or, when the patient
 * is fixed (opened from their record or consultation), a disabled select showing them. A patient picked outside the
 * search (registered on the spot) is given as `known` so that the select can show them.
 */
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePatients } from '../api/list-patients';

export interface FixedPatient {
  id: string;
  full_name: string;
  record_number: string;
}

function patientLabel(patient: FixedPatient): string {
  return `${patient.full_name} · ${patient.record_number}`;
}

export function PatientPicker({
  fixed,
  known,
  enabled = true,
  initialSearch = '',
  nothingFound,
  value,
  onChange,
  ...selectProps
}: Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'filter' | 'nothingFoundMessage'
> & {
  /** The patient when there is nothing to pick: shown in a disabled select, no search. */
  fixed?: FixedPatient | null;
  /** A patient chosen outside the search (registered on the spot): shown while they are the value. */
  known?: FixedPatient | null;
  /** False while the form is not shown (no search request). */
  enabled?: boolean;
  initialSearch?: string;
  /** Shown when the search finds nobody. */
  nothingFound: string;
  /** The picked patient's id ('' when none). */
  value?: string | null;
  onChange: (patientId: string) => void;
}) {
  const { t } = useTranslation('common');
  const [search, setSearch] = useState(initialSearch);
  const [debounced] = useDebouncedValue(search, 300);
  const patients = usePatients({ search: debounced, page: 1, pageSize: 20 }, enabled && !fixed);
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);

  const options = useMemo(() => {
    const found = (patients.data?.results ?? []).map((p) => ({ value: p.id, label: patientLabel(p) }));
    if (picked && picked.value === value && !found.some((option) => option.value === picked.value))
      found.unshift(picked);
    if (known && known.id === value && !found.some((option) => option.value === known.id))
      found.unshift({ value: known.id, label: patientLabel(known) });
    return found;
  }, [patients.data, picked, known, value]);

  if (fixed)
    return (
      <Select
        label={selectProps.label}
        data={[{ value: fixed.id, label: patientLabel(fixed) }]}
        value={fixed.id}
        disabled
      />
    );
  return (
    <Select
      searchable
      required
      withAsterisk
      {...selectProps}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={patients.isFetching ? t('states.loading') : nothingFound}
      data={options}
      value={value}
      onChange={(next, option) => {
        onChange(next ?? '');
        setPicked(next && option ? { value: next, label: option.label } : null);
      }}
    />
  );
}
