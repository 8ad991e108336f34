import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import './toast.css';

export interface ToastView {
  id: number;
  kind: 'info' | 'success' | 'warning' | 'error';
  message: string;
}

const ICONS = { info: Info, success: CheckCircle2, warning: AlertTriangle, error: XCircle };

/** Stacked toasts in the bottom-right corner; errors are announced assertively, the rest politely. */
export function ToastViewport({
  toasts,
  onDismiss,
  dismissLabel,
}: {
  toasts: ToastView[];
  onDismiss: (id: number) => void;
  dismissLabel: string;
}) {
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => {
        const Icon = ICONS[toast.kind];
        return (
          <div
            key={toast.id}
            className={`toast toast--${toast.kind}`}
            role={toast.kind === 'error' ? 'alert' : 'status'}
          >
            <Icon className="toast__icon" aria-hidden="true" />
            <span className="toast__message">{toast.message}</span>
            <button
              type="button"
              className="toast__close"
              onClick={() => onDismiss(toast.id)}
              aria-label={dismissLabel}
            >
              <X aria-hidden="true" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
