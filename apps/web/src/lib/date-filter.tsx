/** The day filter of a server-paginated list page (lib/list-filters.tsx has the page and the search input). */
import { DateField } from './date-field';

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
