import type { ReactNode } from 'react';
import './display.css';

/** An icon, one line and one action, for lists with nothing in them yet. */
export function EmptyState({ icon, text, action }: { icon: ReactNode; text: string; action?: ReactNode }) {
  return (
    <div className="empty-state">
      {icon}
      <p>{text}</p>
      {action}
    </div>
  );
}
