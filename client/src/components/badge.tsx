import type { ReactNode } from 'react';
import './display.css';

export type BadgeTone = 'neutral' | 'success' | 'warning' | 'error' | 'accent';

/** A small status label (job status, "free"). */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
