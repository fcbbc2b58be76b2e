/** A dialog holding a form, and the end of such a form (general error, "Cancel" and submit buttons). */
import { Alert, Button, Group, type MantineColor, Modal, type ModalProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A Modal whose content is a `noValidate` form calling `onSubmit` (default submit prevented). */
export function ModalForm({
  onSubmit,
  children,
  ...modalProps
}: Omit<ModalProps, 'onSubmit'> & { onSubmit: () => void }) {
  return (
    <Modal {...modalProps}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}

/** The end of a dialog's form: the general (non-field) error, then "Cancel" and the submit button. */
export function FormFooter({
  general,
  onCancel,
  cancelLabel,
  submitLabel,
  loading,
  leftSection,
  color,
}: {
  /** Shown in a red alert above the buttons when set. */
  general?: string | null;
  /** Without it, the form has one button (a form whose work is done, e.g. saved vitals: "Fermer" only). */
  onCancel?: (() => void) | undefined;
  /** Defaults to common "Cancel". */
  cancelLabel?: string;
  submitLabel: string;
  loading: boolean;
  leftSection?: ReactNode;
  color?: MantineColor;
}) {
  const { t } = useTranslation('common');
  return (
    <>
      {general && (
        <Alert color="red" role="alert">
          {general}
        </Alert>
      )}
      <Group justify="flex-end">
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            {cancelLabel ?? t('actions.cancel')}
          </Button>
        )}
        <Button type="submit" color={color} loading={loading} leftSection={leftSection}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
