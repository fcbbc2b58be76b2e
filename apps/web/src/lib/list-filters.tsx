/**
 * The filter bar of a server-paginated list page: the page, back to 1 whenever a filter changes, and the
 * search and date inputs.
 */
import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { DateField } from './date-field';

/** The list's page; `resetPage(setFilter)` is `setFilter` that also goes back to the first page. */
export function useListPage() {
  const [page, setPage] = useState(1);
  const resetPage =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return { page, setPage, resetPage };
}

type ValueInputProps = Omit<TextInputProps, 'onChange' | 'type'> & { onChange: (value: string) => void };

/** The free-text search of a list (debounce the value before querying). */
export function SearchFilter({ onChange, ...props }: ValueInputProps) {
  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      {...props}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** A day filter (`YYYY-MM-DD`, '' when none), typed and shown as `jj/mm/aaaa`. */
export function DateFilter({
  label,
  value,
  onChange,
  w = 170,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  w?: number;
}) {
  return <DateField label={label} value={value} onChange={onChange} clearable w={w} />;
}
