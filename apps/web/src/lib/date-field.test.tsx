import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/render';
import { DateField, DateTimeField, parseTypedDate, TimeField } from './date-field';

function Form({ seen }: { seen: string[] }) {
  const [value, setValue] = useState('2026-11-05');
  return (
    <DateField
      label="Date de naissance"
      value={value}
      onChange={(next) => {
        seen.push(next);
        setValue(next);
      }}
    />
  );
}

describe('dates typed as jj/mm/aaaa (issue 25)', () => {
  it('reads a day first, whatever the separator, and the ISO form; refuses what is not a date', () => {
    expect(parseTypedDate('14/03/1985')).toBe('1985-03-14');
    expect(parseTypedDate(' 4.3.1985 ')).toBe('1985-03-04');
    expect(parseTypedDate('14-03-1985')).toBe('1985-03-14');
    expect(parseTypedDate('1985-03-14')).toBe('1985-03-14');
    expect(parseTypedDate('31/02/2026')).toBeNull();
    expect(parseTypedDate('03/14/1985')).toBeNull();
    expect(parseTypedDate('hier')).toBeNull();
  });

  it('shows the value as jj/mm/aaaa and gives the form YYYY-MM-DD', async () => {
    const seen: string[] = [];
    render(
      <TestProviders>
        <Form seen={seen} />
      </TestProviders>,
    );
    const input = screen.getByLabelText('Date de naissance') as HTMLInputElement;
    expect(input).toHaveValue('05/11/2026');
    expect(input).toHaveAttribute('placeholder', 'jj/mm/aaaa');
    fireEvent.change(input, { target: { value: '14/03/1985' } });
    fireEvent.blur(input);
    expect(seen.at(-1)).toBe('1985-03-14');
    expect(input).toHaveValue('14/03/1985');
  });
});

// Issue 37: native datetime-local and time fields showed "12/06/2026, 05:50 PM" to a French user.
describe('dates and times as the language writes them', () => {
  it('shows a date and time as jj/mm/aaaa hh:mm on a 24-hour clock, never a native field', () => {
    render(
      <TestProviders>
        <DateTimeField label="Administrée le" value="2026-12-06T17:50" onChange={() => {}} />
      </TestProviders>,
    );
    const field = screen.getByRole('button', { name: 'Administrée le' });
    expect(field).toHaveTextContent('06/12/2026 17:50');
    expect(document.querySelector('input[type="datetime-local"]')).toBeNull();
  });

  it('gives a time of day as HH:mm from a 24-hour picker', () => {
    const seen: string[] = [];
    render(
      <TestProviders>
        <TimeField label="Heure" value="17:50" onChange={(v) => seen.push(v)} />
      </TestProviders>,
    );
    expect(document.querySelector('input[type="time"]')).toBeNull();
    expect(screen.getByDisplayValue('17')).toBeInTheDocument();
    expect(screen.getByDisplayValue('50')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('PM')).toBeNull();
  });
});
