/**
 * Client-side validation with the server's zod schemas (DESIGN §6): the issues of a failed parse become
 * form field errors, with the schema's message codes translated ('patients.birth_date_required' →
 * `patients:validation.birth_date_required`) and zod's generic issues put in words.
 */
import type { UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { translate } from './i18n';

export function issueMessage(issue: z.core.$ZodIssue): string {
  const code = issue.message;
  const match = /^([a-z_]+)\.([a-z_]+)$/.exec(code);
  if (match) {
    const key = `${match[1]}:validation.${match[2]}`;
    const text = translate(key);
    if (text !== key && text !== `validation.${match[2]}`) return text;
  }
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? translate('common:validation.required')
        : translate('common:validation.min', { min: String(issue.minimum) });
    case 'too_big':
      return issue.origin === 'string'
        ? translate('common:validation.tooLong', { max: String(issue.maximum) })
        : translate('common:validation.max', { max: String(issue.maximum) });
    case 'invalid_type':
      return translate('common:validation.required');
    default:
      return translate('common:validation.invalid');
  }
}

/** Field errors (by top-level field, or a dotted path) of a zod error. */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || 'non_field_errors';
    if (!errors[path]) errors[path] = issueMessage(issue);
  }
  return errors;
}

/**
 * Parses `body` with `schema`; on failure sets the form errors (mapping paths with `fieldOf`) and
 * returns null.
 */
export function validateWith<S extends z.ZodType, T extends Record<string, unknown>>(
  schema: S,
  body: unknown,
  form: UseFormReturnType<T>,
  fieldOf: (path: string) => string = (path) => path,
): z.output<S> | null {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(zodFieldErrors(result.error))) {
    const field = fieldOf(path);
    if (!errors[field]) errors[field] = message;
  }
  form.setErrors(errors);
  return null;
}
