import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
  closeLabel?: string;
}

/** An in-app question with two answers (instead of the browser's confirm()); the safe answer has focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy,
  closeLabel,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      size="sm"
      closeLabel={closeLabel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} autoFocus data-testid="confirm-cancel">
            {cancelLabel}
          </Button>
          <Button onClick={onConfirm} busy={busy} data-testid="confirm-ok">
            {confirmLabel}
          </Button>
        </>
      }
    >
      {/* A plain text gets its paragraph; a caller's own markup (its <p>) is used as it is, never nested in one. */}
      {typeof children === 'string' || typeof children === 'number' ? <p>{children}</p> : children}
    </Modal>
  );
}
