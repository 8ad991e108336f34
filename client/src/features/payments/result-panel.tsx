import type { ReactNode } from 'react';
import './payments.css';

interface ResultPanelProps {
  tone: 'success' | 'error' | 'pending';
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions: ReactNode;
}

/** The shared frame of the three payment result pages: icon, title, text lines and buttons. */
export function ResultPanel({ tone, icon, title, children, actions }: ResultPanelProps) {
  return (
    <section className={`container payment-result payment-result--${tone}`}>
      <div className="payment-result__card">
        <span className="payment-result__icon">{icon}</span>
        <h1>{title}</h1>
        {children ? <div className="payment-result__text">{children}</div> : null}
        <div className="payment-result__actions">{actions}</div>
      </div>
    </section>
  );
}
