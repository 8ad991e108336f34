import { endpoints } from '@imagestudio/contracts';
import type { ApiClient } from '../../../lib/api/api-client';
import { fromDraftStrokes, toDraftStrokes, type BrushStroke } from './matte-edits';

/** How long the brush must rest before its strokes are saved: a run of dabs is one save, not one per dab. */
export const DRAFT_SAVE_DELAY_MS = 1000;

/**
 * Where the draft stands: `saved` (the server has the strokes on screen), `pending` (a change waits for the
 * delay), `saving` (a save is on its way), `failed` (the last save did not arrive; the next change or flush tries
 * again). Anything but `saved` is unsaved work: leaving asks first.
 */
export type DraftState = 'saved' | 'pending' | 'saving' | 'failed';

/** The job's saved strokes; none when there is no draft or it could not be read (the editor starts clean). */
export async function loadDraft(api: ApiClient, jobId: string): Promise<BrushStroke[]> {
  try {
    const reply = await api.call(endpoints.jobs.matteDraft, { params: { id: jobId } }, { skipErrorHandling: true });
    return fromDraftStrokes(reply.payload.strokes);
  } catch {
    return [];
  }
}

/**
 * Saves the touch-up brush's strokes as the job's draft on the server (`PUT /api/jobs/{id}/matte-draft`), debounced
 * by DRAFT_SAVE_DELAY_MS and one request at a time: a change made while a save is on its way is saved after it,
 * so the server never ends on an older list. `discard` (the editor's reset) deletes the draft the same way.
 * `flush` saves at once what waits (leaving the editor). Failures are quiet here: the state says so, and leaving
 * with it asks first.
 */
export class DraftSaver {
  private state: DraftState = 'saved';
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** What the next request sends: strokes to save, or null to discard; undefined when nothing waits. */
  private next: readonly BrushStroke[] | null | undefined = undefined;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly jobId: string,
    private readonly onState: (state: DraftState) => void,
  ) {}

  get current(): DraftState {
    return this.state;
  }

  get unsaved(): boolean {
    return this.state !== 'saved';
  }

  /** The strokes changed: save them once the brush has rested. */
  schedule(strokes: readonly BrushStroke[]): void {
    this.queue([...strokes]);
  }

  /** Reset: drop the draft on the server (after the same rest, so a reset undone at once is one request). */
  discard(): void {
    this.queue(null);
  }

  /** Sends what waits now, and resolves when the server has it (or the save failed). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.run();
  }

  /** The editor goes: nothing more is scheduled (what waits is flushed by the caller). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private queue(next: readonly BrushStroke[] | null): void {
    this.next = next;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, DRAFT_SAVE_DELAY_MS);
    if (!this.inFlight) this.set('pending');
  }

  private async run(): Promise<void> {
    // One request at a time: a change made meanwhile is sent once the one on its way is done.
    while (this.inFlight) await this.inFlight;
    const next = this.next;
    if (next === undefined) return;
    this.next = undefined;
    this.set('saving');
    const sent = this.send(next);
    this.inFlight = sent.then(() => undefined);
    const ok = await sent;
    this.inFlight = null;
    // What waits goes now unless its own delay is still running; after a failure only a change or a flush retries.
    if (ok && this.next !== undefined && !this.timer) await this.run();
  }

  private async send(next: readonly BrushStroke[] | null): Promise<boolean> {
    const params = { id: this.jobId };
    const options = { skipErrorHandling: true };
    try {
      if (next === null) await this.api.call(endpoints.jobs.discardMatteDraft, { params }, options);
      else
        await this.api.call(
          endpoints.jobs.saveMatteDraft,
          { params, body: { strokes: toDraftStrokes(next) } },
          options,
        );
      this.set(this.next === undefined ? 'saved' : 'pending');
      return true;
    } catch {
      // Kept for the next try, unless a newer change replaced it meanwhile.
      if (this.next === undefined) this.next = next;
      this.set('failed');
      return false;
    }
  }

  private set(state: DraftState): void {
    if (state === this.state) return;
    this.state = state;
    this.onState(state);
  }
}
