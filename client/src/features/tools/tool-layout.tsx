import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../stores';
import './tools.css';

/** Phones, where the canvas sits under the controls. */
const PHONE = '(max-width: 767px)';
/** Moments of a run worth bringing into view on a phone: its progress, then its outcome. */
const SHOWN = new Set(['submitting', 'succeeded', 'failed', 'cancelled']);
/** A run in progress, and the ends it comes to. */
const OPEN = new Set(['submitting', 'queued', 'running']);
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Tool page frame: controls left (360 px) and canvas right on wide screens. On phones the controls (with
 * the upload zone) come first, and the canvas scrolls into view when a run starts and again when it ends.
 * `activity` names the run's moment ('idle', 'submitting', or the job's status).
 *
 * When a run the page followed ends, the focus moves to its outcome: the "Result" heading over a result, or the
 * message of a job that ended without one (an element of the canvas marked `data-run-outcome`). The run and
 * Cancel buttons it was on are disabled or gone by then, and a focus left on the page's body would go to
 * "Start over", the footer and the header before the result. `announcement` is the one line a screen reader
 * hears about the run (the page's only live region): the canvas itself is not live, or every button label of
 * a result would be read.
 */
export function ToolLayout({
  title,
  lead,
  controls,
  canvas,
  activity = 'idle',
  announcement,
}: {
  title: string;
  lead: string;
  controls: ReactNode;
  canvas: ReactNode;
  activity?: string;
  /**
   * The status line (runAnnouncement). Without one, the end of a run the page followed is said by the text of
   * its outcome ("Result" is said as "Done").
   */
  announcement?: string;
}) {
  const t = useT();
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLElement>(null);
  const previous = useRef(activity);
  const followed = useRef(OPEN.has(activity));
  const [outcomeText, setOutcomeText] = useState('');

  useEffect(() => {
    const changed = previous.current !== activity;
    previous.current = activity;
    if (!changed) return;
    setOutcomeText('');
    if (OPEN.has(activity)) followed.current = true;
    const phone = typeof window.matchMedia === 'function' && window.matchMedia(PHONE).matches;
    // Only the end of a run seen on this page: a finished job opened by URL keeps the focus on the page's heading.
    if (ENDED.has(activity) && followed.current) {
      followed.current = false;
      const outcome = focusOutcome(pageRef.current, canvasRef.current, phone);
      if (outcome) setOutcomeText(activity === 'succeeded' ? t('client-tools.job.succeeded') : outcome);
    }
    if (!SHOWN.has(activity) || !phone) return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    canvasRef.current?.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  }, [activity]);

  return (
    <div ref={pageRef} className="container tool-page">
      <header className="tool-page__header">
        <h1>{title}</h1>
        <p>{lead}</p>
      </header>
      <p className="visually-hidden" role="status" data-testid="tool-announcement">
        {announcement ?? outcomeText}
      </p>
      <div className="tool-page__grid">
        <section ref={canvasRef} className="tool-page__canvas" data-testid="tool-canvas">
          {activity === 'succeeded' ? (
            <h2 className="tool-page__result-title" tabIndex={-1} data-run-outcome="" data-testid="result-heading">
              {t('client-tools.common.result')}
            </h2>
          ) : null}
          {canvas}
        </section>
        <div className="tool-page__controls">{controls}</div>
      </div>
    </div>
  );
}

/**
 * Focuses the canvas's outcome unless the customer has moved on to something outside the tool page meanwhile
 * (the header's menu, another tab of the app): only a focus that was lost or is still on the page moves. On a
 * phone the canvas scrolls into view on its own, smoothly. Returns the outcome's text, null without one.
 */
function focusOutcome(page: HTMLElement | null, canvas: HTMLElement | null, phone: boolean): string | null {
  const target = canvas?.querySelector<HTMLElement>('[data-run-outcome]');
  if (!target) return null;
  const active = document.activeElement;
  const lost = active === null || active === document.body || !active.isConnected;
  if (lost || page?.contains(active)) target.focus({ preventScroll: phone });
  return target.textContent?.trim() ?? null;
}
