import { endpoints } from '@imagestudio/contracts';
import { errorReply, FakeApi, makeStore, okPayload as ok } from '../../../test/fake-api';
import { DRAFT_SAVE_DELAY_MS, DraftSaver, loadDraft, type DraftState } from './matte-draft';
import type { BrushStroke } from './matte-edits';

const { jobs } = endpoints;
const stroke = (x: number): BrushStroke => ({ mode: 'erase', size: 8, points: [{ x, y: 2.5 }] });
const saved = { strokes: [], updated_at: '2026-11-28T10:00:00.000Z' };

/** Lets the fake transport's promises settle without moving the fake clock. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function saverOn(api: FakeApi) {
  const states: DraftState[] = [];
  const saver = new DraftSaver(makeStore(api).store.api, 'j1', (s) => states.push(s));
  return { saver, states };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('the touch-up draft saver', () => {
  it('saves once the brush has rested, the newest strokes only, as [x, y] pairs', async () => {
    const api = new FakeApi().route(jobs.saveMatteDraft, ok(saved), { id: 'j1' });
    const { saver, states } = saverOn(api);
    saver.schedule([stroke(1)]);
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS - 1);
    saver.schedule([stroke(1), stroke(2)]);
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS - 1);
    await settle();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(0);
    expect(saver.unsaved).toBe(true);
    jest.advanceTimersByTime(1);
    await settle();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(1);
    expect(api.last(jobs.saveMatteDraft)!.data).toMatchObject({
      strokes: [
        { mode: 'erase', size: 8, points: [[1, 2.5]] },
        { mode: 'erase', size: 8, points: [[2, 2.5]] },
      ],
    });
    expect(states).toEqual(['pending', 'saving', 'saved']);
    expect(saver.unsaved).toBe(false);
  });

  it('sends one request at a time: a change made while one is on its way is saved after it', async () => {
    const answers: Array<() => void> = [];
    const api = new FakeApi().route(
      jobs.saveMatteDraft,
      () => new Promise((resolve) => answers.push(() => resolve(ok(saved)))),
    );
    const { saver } = saverOn(api);
    saver.schedule([stroke(1)]);
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS);
    await settle();
    saver.schedule([stroke(1), stroke(2)]);
    // Leaving flushes at once, but only after the save on its way has answered.
    const flushed = saver.flush();
    await settle();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(1);
    answers[0]!();
    await settle();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(2);
    expect((api.last(jobs.saveMatteDraft)!.data as { strokes: unknown[] }).strokes).toHaveLength(2);
    expect(saver.current).toBe('saving');
    answers[1]!();
    await flushed;
    expect(saver.current).toBe('saved');
  });

  it('stays unsaved after a failed save until a flush gets it through, and discards with DELETE', async () => {
    let fail = true;
    const api = new FakeApi()
      .route(jobs.saveMatteDraft, () => (fail ? errorReply('internal_error', 'Down') : ok(saved)))
      .route(jobs.discardMatteDraft, ok({ strokes: [], updated_at: null }), { id: 'j1' });
    const { saver } = saverOn(api);
    saver.schedule([stroke(1)]);
    await saver.flush();
    expect(saver.current).toBe('failed');
    // No retry loop on its own.
    jest.advanceTimersByTime(10 * DRAFT_SAVE_DELAY_MS);
    await settle();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(1);
    fail = false;
    await saver.flush();
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(2);
    expect(saver.current).toBe('saved');
    saver.discard();
    expect(saver.unsaved).toBe(true);
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS);
    await settle();
    expect(api.calls(jobs.discardMatteDraft)).toHaveLength(1);
    expect(saver.current).toBe('saved');
  });

  it('reads the saved strokes back as the brush keeps them, and none when the draft cannot be read', async () => {
    const api = new FakeApi().route(
      jobs.matteDraft,
      ok({ strokes: [{ mode: 'restore', size: 4.5, points: [[3, 4.2]] }], updated_at: saved.updated_at }),
      { id: 'j1' },
    );
    const client = makeStore(api).store.api;
    expect(await loadDraft(client, 'j1')).toEqual([{ mode: 'restore', size: 4.5, points: [{ x: 3, y: 4.2 }] }]);
    expect(await loadDraft(client, 'other')).toEqual([]);
  });
});
