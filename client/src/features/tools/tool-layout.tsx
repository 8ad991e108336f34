import type { ReactNode } from 'react';
import './tools.css';

/** Tool page frame: controls left (360 px) and canvas right on wide screens; canvas first on phones. */
export function ToolLayout({ title, lead, controls, canvas }: { title: string; lead: string; controls: ReactNode; canvas: ReactNode }) {
  return (
    <div className="container tool-page">
      <header className="tool-page__header">
        <h1>{title}</h1>
        <p>{lead}</p>
      </header>
      <div className="tool-page__grid">
        <section className="tool-page__canvas" aria-live="polite">
          {canvas}
        </section>
        <div className="tool-page__controls">{controls}</div>
      </div>
    </div>
  );
}
