/**
 * The filter bar of a server-paginated list page: the page, back to 1 whenever a filter changes, and the
 * search input (the date input is lib/date-filter.tsx: the date picker's code is loaded only by the lists that
 * filter by day, issue 38).
 */
import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

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
