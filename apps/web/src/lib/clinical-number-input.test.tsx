import { useForm } from '@mantine/form';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestProviders } from '../test/render';
import { ClinicalNumberInput } from './clinical-number-input';
import { i18n } from './i18n';
import { validateWith } from './zod-form';

const Weight = z.object({ weight_kg: z.number().positive().max(300).nullish() });

interface Seen {
  values: (number | string | null)[];
  saved: unknown[];
  setWeight?: (value: number | null) => void;
}

/** A form as the app's are: Mantine's form, the field spread from getInputProps, the contract checked on saving. */
function WeightForm({ seen, initial = '' }: { seen: Seen; initial?: number | string }) {
  const form = useForm<{ weight_kg: number | string | null }>({
    initialValues: { weight_kg: initial },
    onValuesChange: (values) => seen.values.push(values.weight_kg),
  });
  seen.setWeight = (value) => form.setFieldValue('weight_kg', value);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const body = validateWith(Weight, form.getValues(), form);
        if (body) seen.saved.push(body);
      }}
    >
      <ClinicalNumberInput
        label="Poids"
        min={0.2}
        max={300}
        decimals={2}
        unit="kg"
        {...form.getInputProps('weight_kg')}
      />
      <button type="submit">Enregistrer</button>
    </form>
  );
}

function setup(initial?: number | string) {
  const seen: Seen = { values: [], saved: [] };
  render(
    <TestProviders>
      <WeightForm seen={seen} initial={initial} />
    </TestProviders>,
  );
  return { seen, input: screen.getByLabelText('Poids') as HTMLInputElement };
}

afterEach(async () => {
  await i18n.changeLanguage('fr');
});

describe('the clinical number field (issue 34, item 8)', () => {
  it('a pasted "62,5" is 62.5 kg, shown "62,5" in French, and stays so when the field is left', async () => {
    const user = userEvent.setup();
    const { seen, input } = setup();
    await user.click(input);
    await user.paste('62,5');
    expect(seen.values.at(-1)).toBe(62.5);
    expect(input).toHaveValue('62,5');
    await user.tab();
    expect(input).toHaveValue('62,5');
    expect(seen.values.at(-1)).toBe(62.5);
    expect(screen.queryByText(/hors limites/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(seen.saved).toEqual([{ weight_kg: 62.5 }]);
  });

  it('a value filled in at once (the browser, Playwright fill) with a point is read and shown with a comma', () => {
    const { seen, input } = setup();
    fireEvent.change(input, { target: { value: '8.5' } });
    expect(seen.values.at(-1)).toBe(8.5);
    fireEvent.blur(input);
    expect(input).toHaveValue('8,5');
  });

  it('typed key by key in English, with a comma or a point, it shows a point', async () => {
    await act(() => i18n.changeLanguage('en'));
    const user = userEvent.setup();
    const { seen, input } = setup();
    await user.type(input, '62,5');
    expect(seen.values.at(-1)).toBe(62.5);
    await user.tab();
    expect(input).toHaveValue('62.5');
    await user.clear(input);
    await user.type(input, '8.25');
    expect(seen.values.at(-1)).toBe(8.25);
  });

  it('out of bounds is said, never clamped: the text stays, the form holds NaN and cannot save it', async () => {
    const user = userEvent.setup();
    const { seen, input } = setup();
    await user.click(input);
    await user.paste('625');
    await user.tab();
    expect(input).toHaveValue('625');
    expect(screen.getByText('Valeur hors limites : 0,2–300 kg.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(Number.isNaN(seen.values.at(-1))).toBe(true);
    expect(seen.values).not.toContain(300);
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(seen.saved).toEqual([]);
    // The field's own reason is what is shown, not the contract's generic word.
    expect(screen.getByText('Valeur hors limites : 0,2–300 kg.')).toBeInTheDocument();
    // Corrected, the error goes and the value is saved.
    await user.clear(input);
    await user.type(input, '62,5');
    expect(screen.queryByText(/hors limites/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(seen.saved).toEqual([{ weight_kg: 62.5 }]);
  });

  it('refuses what it cannot read with a message, in French and in English', async () => {
    const user = userEvent.setup();
    const { seen, input } = setup();
    await user.type(input, '62,5,1');
    expect(Number.isNaN(seen.values.at(-1))).toBe(true);
    // Not said while typed, said once the field is left.
    expect(screen.queryByText(/illisible/)).toBeNull();
    await user.tab();
    expect(
      screen.getByText('Nombre illisible : des chiffres, et une seule virgule pour les décimales.'),
    ).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByText('Not a number: digits, and a single decimal point at most.')).toBeInTheDocument();
    expect(input).toHaveValue('62,5,1');
    await user.clear(input);
    await user.type(input, '62.555');
    await user.tab();
    expect(screen.getByText('At most 2 decimals.')).toBeInTheDocument();
    expect(Number.isNaN(seen.values.at(-1))).toBe(true);
  });

  it('a thousand-or-decimal is refused as ambiguous with both readings offered', async () => {
    await act(() => i18n.changeLanguage('en'));
    const { seen, input } = setup();
    fireEvent.change(input, { target: { value: '1,250' } });
    fireEvent.blur(input);
    expect(screen.getByText('“1,250” is ambiguous: write 1250 or 1.25.')).toBeInTheDocument();
    expect(Number.isNaN(seen.values.at(-1))).toBe(true);
  });

  it('an emptied field gives the form null; a value set by the form shows in the language; a new language rewrites it', async () => {
    const user = userEvent.setup();
    const { seen, input } = setup(62.5);
    expect(input).toHaveValue('62,5');
    await user.clear(input);
    expect(seen.values.at(-1)).toBeNull();
    act(() => seen.setWeight?.(8.25));
    expect(input).toHaveValue('8,25');
    await act(() => i18n.changeLanguage('en'));
    expect(input).toHaveValue('8.25');
    // A form still holding text (a draft written before) is read too.
    render(
      <TestProviders>
        <WeightForm seen={{ values: [], saved: [] }} initial="39,4" />
      </TestProviders>,
    );
    expect(screen.getAllByLabelText('Poids')[1]).toHaveValue('39.4');
  });
});
