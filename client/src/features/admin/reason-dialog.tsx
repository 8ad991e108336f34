import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Modal, TextField } from '../../components';
import { useStore } from '../../stores';
import type { ChangeOutcome } from './stores/changes';

interface ReasonDialogProps {
  open: boolean;
  title: string;
  lead: string;
  confirmLabel: string;
  /** Under the reason: what becomes of it (an adjustment's reason is shown to the customer, a refund's is not). */
  reasonHelp: string;
  busy: boolean;
  /** Fields shown above the reason (the adjustment's amount). */
  children?: ReactNode;
  onCancel(): void;
  onSubmit(reason: string): Promise<ChangeOutcome>;
}

/** The shortest reason the server takes (trimmed), as its schema says. */
const REASON_MIN = 3;

/** A change that needs a written reason (refund, adjustment): the reason, the server's errors, Confirm. */
export function ReasonDialog({
  open,
  title,
  lead,
  confirmLabel,
  reasonHelp,
  busy,
  children,
  onCancel,
  onSubmit,
}: ReasonDialogProps) {
  const { t } = useStore();
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  useEffect(() => {
    if (open) {
      setReason('');
      setOutcome(null);
    }
  }, [open]);
  // The reason is checked here first: the server asks for the password before it reads the body, so an empty
  // reason would cost the operator a password prompt and then fail anyway.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < REASON_MIN) {
      setOutcome({
        ok: false,
        message: t('client-admin.reasonTooShort'),
        fieldErrors: { reason: t('client-admin.reasonTooShort') },
      });
      return;
    }
    setOutcome(await onSubmit(reason));
  };
  const fieldProblem = outcome?.fieldErrors.reason ?? null;
  const otherProblems =
    outcome && !outcome.ok ? Object.entries(outcome.fieldErrors).filter(([k]) => k !== 'reason') : [];
  return (
    <Modal open={open} title={title} onClose={onCancel} closeLabel={t('client-admin.close')}>
      <form className="admin-form" onSubmit={(e) => void submit(e)} data-testid="reason-form" noValidate>
        <p>{lead}</p>
        {children}
        <TextField
          label={t('client-admin.reason')}
          help={reasonHelp}
          required
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={fieldProblem}
        />
        {outcome && !outcome.ok && !fieldProblem ? (
          <p className="admin-alert" role="alert">
            {otherProblems.length > 0 ? otherProblems.map(([, m]) => m).join(' ') : outcome.message}
          </p>
        ) : null}
        <div className="admin-form__actions">
          <Button type="button" variant="secondary" onClick={onCancel}>
            {t('client-admin.cancel')}
          </Button>
          <Button type="submit" busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
