/**
 * "Confirm with a mandatory reason" dialog (cancel a visit, archive a record): the reason is validated
 * with the contract's zod schema, then `onConfirm(reason)` runs; on success a toast (`doneTitle`) and
 * the dialog closes; a 400 puts the server's field errors on the form (any other API error goes under
 * the reason).
 */
import { type MantineColor, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { isApiError } from '../../api-client';
import { useServerFieldErrors } from '../../field-errors';
import { FormFooter, ModalForm } from '../../modal-form';
import { toast } from '../../toast';
import { validateWith } from '../../zod-form';

export function ReasonModal({
  opened,
  onClose,
  title,
  description,
  reasonLabel,
  hint,
  confirmLabel,
  confirmIcon,
  closeLabel,
  color,
  schema,
  onConfirm,
  doneTitle,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Shown above the reason (a Text or an Alert). */
  description: ReactNode;
  reasonLabel: string;
  /** Small dimmed text under the reason. */
  hint?: string;
  confirmLabel: string;
  confirmIcon?: ReactNode;
  /** Label of the button that closes without confirming. */
  closeLabel: string;
  color: MantineColor;
  schema: z.ZodType<{ reason: string }>;
  /** Runs the action (resolves when done, rejects with the API error). */
  onConfirm: (reason: string) => Promise<unknown>;
  /** Success toast shown before the dialog closes. */
  doneTitle: string;
}) {
  const form = useForm<{ reason: string }>({ initialValues: { reason: '' } });
  const applyServerErrors = useServerFieldErrors(form);
  const [pending, setPending] = useState(false);

  async function submit() {
    const body = validateWith(schema, form.getValues(), form);
    if (!body) return;
    setPending(true);
    try {
      await onConfirm(body.reason);
      toast({ kind: 'success', title: doneTitle });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      if (!message && isApiError(error)) form.setFieldError('reason', error.message);
    } finally {
      setPending(false);
    }
  }

  return (
    <ModalForm opened={opened} onClose={onClose} title={title} onSubmit={() => void submit()}>
      <Stack gap="sm">
        {description}
        <Textarea
          label={reasonLabel}
          required
          withAsterisk
          autosize
          minRows={2}
          {...form.getInputProps('reason')}
        />
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
        <FormFooter
          onCancel={onClose}
          cancelLabel={closeLabel}
          submitLabel={confirmLabel}
          loading={pending}
          leftSection={confirmIcon}
          color={color}
        />
      </Stack>
    </ModalForm>
  );
}
