/** Puts the server's 400 field errors into a Mantine form, as returned (DESIGN §6). */
import type { UseFormReturnType } from '@mantine/form';
import { useCallback, useState } from 'react';
import { isApiError } from './api-client';

export interface ServerErrors {
  fields: Record<string, string>;
  /** non_field_errors, detail or error: shown above the form. */
  general: string | null;
}

function firstMessage(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const messages = value.filter((item): item is string => typeof item === 'string');
    return messages.length > 0 ? messages.join(' ') : null;
  }
  return null;
}

/** Splits a 400 body into field messages and a general message. */
export function serverErrorsFromBody(body: unknown): ServerErrors {
  const result: ServerErrors = { fields: {}, general: null };
  if (!body || typeof body !== 'object') return result;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const message = firstMessage(value);
    if (!message) continue;
    if (key === 'non_field_errors' || key === 'detail' || key === 'error') {
      result.general = result.general ? `${result.general} ${message}` : message;
    } else {
      result.fields[key] = message;
    }
  }
  return result;
}

/**
 * Returns `apply(error)`: for an ApiError 400 it sets the form's field errors (fields the form knows;
 * unknown fields join the general message) and returns the general message; otherwise returns null
 * and sets nothing.
 */
export function useServerFieldErrors<T extends Record<string, unknown>>(
  form: UseFormReturnType<T>,
): (error: unknown) => string | null {
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error) || error.status !== 400) return null;
      const { fields, general } = serverErrorsFromBody(error.body);
      const known = form.getValues();
      const extra: string[] = [];
      for (const [field, message] of Object.entries(fields)) {
        if (Object.hasOwn(known, field)) form.setFieldError(field, message);
        else extra.push(message);
      }
      const all = [general, ...extra].filter(Boolean).join(' ');
      return all.length > 0 ? all : null;
    },
    [form],
  );
}

/**
 * The failure of a dialog's form, as every form shows it: a 400's field errors on their fields and the rest
 * (non-field errors, unknown fields) above the buttons; no message after a 403 or a 404, which the API client
 * has already announced; any other failure's message (or `fallback`) above the buttons.
 */
export function useFormFailure<T extends Record<string, unknown>>(
  form: UseFormReturnType<T>,
  fallback: string,
) {
  const applyServerErrors = useServerFieldErrors(form);
  const [general, setGeneral] = useState<string | null>(null);
  const fail = useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.status === 400) setGeneral(applyServerErrors(error));
      else if (!isApiError(error)) setGeneral(fallback);
      else if (error.status !== 403 && error.status !== 404) setGeneral(error.message);
    },
    [applyServerErrors, fallback],
  );
  const clear = useCallback(() => setGeneral(null), []);
  return { general, clear, fail };
}
