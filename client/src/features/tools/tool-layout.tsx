import { useEffect, useRef, type ReactNode } from 'react';
import './tools.css';

/** Phones, where the canvas sits under the controls. */
const PHONE = '(max-width: 767px)';
/** Moments of a run worth bringing into view on a phone: its progress, then its outcome. */
const SHOWN = new Set(['submitting', 'succeeded', 'failed', 'cancelled']);

/**
 * Tool page frame: controls left (360 px) and canvas right on wide screens. On phones the controls (with
 * the upload zone) come first, and the canvas scrolls into view when a run starts and again when it ends.
 * `activity` names the run's moment ('idle', 'submitting', or the job's status).
 */
export function ToolLayout({
  title,
  lead,
  controls,
  canvas,
  activity = 'idle',
}: {
  title: string;
  lead: string;
  controls: ReactNode;
  canvas: ReactNode;
  activity?: string;
}) {
  const canvasRef = useRef<HTMLElement>(null);
  const previous = useRef(activity);

  useEffect(() => {
    const changed = previous.current !== activity;
    previous.current = activity;
    if (
      !changed ||
      !SHOWN.has(activity) ||
      typeof window.matchMedia !== 'function' ||
      !window.matchMedia(PHONE).matches
    )
      return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    canvasRef.current?.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  }, [activity]);

  return (
    <div className="container tool-page">
      <header className="tool-page__header">
        <h1>{title}</h1>
        <p>{lead}</p>
      </header>
      <div className="tool-page__grid">
        <section ref={canvasRef} className="tool-page__canvas" aria-live="polite" data-testid="tool-canvas">
          {canvas}
        </section>
        <div className="tool-page__controls">{controls}</div>
      </div>
    </div>
  );
}
