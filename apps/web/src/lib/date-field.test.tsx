import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/render';
import { DateField, parseTypedDate } from './date-field';

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
