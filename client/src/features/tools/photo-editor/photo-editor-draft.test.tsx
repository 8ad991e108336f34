import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { endpoints, type JobView } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../../test/fixtures';
import { FakeApi, okPayload as ok, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import type { BrushStroke } from './matte-edits';

// jsdom has no 2D canvas: the cut-out's surfaces are stood in for, recording what they are asked to paint.
const repainted: BrushStroke[][] = [];
jest.mock('./preview-canvas', () => ({
  loadImage: async () => ({}),
  CutoutSurfaces: class {
    scale = 1;
    constructor(
      _fg: unknown,
      _matte: unknown,
      readonly width: number,
      readonly height: number,
    ) {}
    repaint(strokes: BrushStroke[]) {
      repainted.push(strokes.map((s) => ({ ...s, points: [...s.points] })));
    }
    paintSegment() {}
    drawOn(target: HTMLCanvasElement) {
      target.width = 40;
      target.height = 30;
    }
    fullMatte = async () => new Blob(['matte'], { type: 'image/png' });
  },
}));

const { jobs } = endpoints;
const saved = { strokes: [], updated_at: '2026-11-28T10:00:00.000Z' };

function cutoutJob(): JobView {
  return jobFixture({
    id: 'c1',
    params: { output_format: 'png', mask_only: false },
    input_name: 'shoe.png',
    results: [{ url: 'https://s3/out.png', width: 40, height: 30, format: 'png', bytes: 1 }],
    compose_sources: { foreground_url: 'https://s3/fg.png', matte_url: 'https://s3/matte.png', width: 40, height: 30 },
  });
}

function editorApi() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(jobs.get, ok(cutoutJob()), { id: 'c1' })
    .route(jobs.composePreview, { status: 200, data: new Blob(['p'], { type: 'image/webp' }) }, { id: 'c1' });
}

beforeEach(() => {
  repainted.length = 0;
  URL.createObjectURL = jest.fn(() => 'blob:preview');
  URL.revokeObjectURL = jest.fn();
  // The touch-up canvas is 40 x 30 CSS px on screen: one matte pixel per CSS pixel.
  jest
    .spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect')
    .mockReturnValue({ left: 0, top: 0, width: 40, height: 30, right: 40, bottom: 30, x: 0, y: 0 } as DOMRect);
});

afterEach(() => jest.restoreAllMocks());

/** One keyboard stroke on the touch-up canvas: down at the centre, two steps right (8 px each), up. */
async function paintOneStroke() {
  const editor = await screen.findByTestId('photo-editor');
  fireEvent.click(within(editor).getByRole('button', { name: 'Touch up' }));
  const canvas = await within(editor).findByRole('img', { name: 'Cut-out to touch up' });
  for (const key of [' ', 'ArrowRight', 'ArrowRight', ' ']) fireEvent.keyDown(canvas, { key });
  return editor;
}

describe("the touch-up brush's draft", () => {
  it('is painted again when the editor opens, and the first preview carries it', async () => {
    const api = editorApi().route(
      jobs.matteDraft,
      ok({
        strokes: [
          {
            mode: 'erase',
            size: 6.5,
            points: [
              [4, 5],
              [10.5, 5],
            ],
          },
        ],
        updated_at: saved.updated_at,
      }),
      { id: 'c1' },
    );
    renderApp('/services/remove-background?job=c1', api);
    await waitFor(() => expect(api.calls(jobs.composePreview)).toHaveLength(1), { timeout: 2000 });
    expect(repainted.at(-1)).toEqual([
      {
        mode: 'erase',
        size: 6.5,
        points: [
          { x: 4, y: 5 },
          { x: 10.5, y: 5 },
        ],
      },
    ]);
    // The preview waited for the matte: no request went without it.
    expect((api.last(jobs.composePreview)!.data as FormData).get('matte')).toBeInstanceOf(Blob);
    fireEvent.click(within(screen.getByTestId('photo-editor')).getByRole('button', { name: 'Touch up' }));
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('saves a stroke once the brush rests, and reset discards the draft', async () => {
    const api = editorApi()
      .route(jobs.matteDraft, ok({ strokes: [], updated_at: null }), { id: 'c1' })
      .route(jobs.saveMatteDraft, ok(saved), { id: 'c1' })
      .route(jobs.discardMatteDraft, ok({ strokes: [], updated_at: null }), { id: 'c1' });
    renderApp('/services/remove-background?job=c1', api);
    const editor = await paintOneStroke();
    expect(screen.getByTestId('draft-state').textContent).toContain('Saving your touch-ups...');
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(0);
    await waitFor(() => expect(api.calls(jobs.saveMatteDraft)).toHaveLength(1), { timeout: 3000 });
    expect(api.last(jobs.saveMatteDraft)!.data).toMatchObject({
      strokes: [
        {
          mode: 'erase',
          size: 32,
          points: [
            [20, 15],
            [28, 15],
            [36, 15],
          ],
        },
      ],
    });
    await waitFor(() => expect(screen.getByTestId('draft-state').textContent).toBe('Touch-ups saved. '));
    fireEvent.click(within(editor).getByRole('button', { name: 'Reset edits' }));
    await waitFor(() => expect(api.calls(jobs.discardMatteDraft)).toHaveLength(1), { timeout: 3000 });
  });

  it('asks before leaving while a stroke is unsaved, and stays or leaves as answered', async () => {
    const api = editorApi()
      .route(jobs.matteDraft, ok({ strokes: [], updated_at: null }), { id: 'c1' })
      // The server does not answer the save: the stroke stays unsaved.
      .route(jobs.saveMatteDraft, () => new Promise(() => {}), { id: 'c1' });
    const { router } = renderApp('/services/remove-background?job=c1', api);
    await paintOneStroke();
    await act(() => router.navigate('/'));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the editor?' });
    // Asking sends the waiting save at once rather than after the delay.
    expect(api.calls(jobs.saveMatteDraft)).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/services/remove-background');
    // Closing the tab asks too.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await act(() => router.navigate('/'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('lets the page go without asking once the strokes are saved', async () => {
    const api = editorApi()
      .route(jobs.matteDraft, ok({ strokes: [], updated_at: null }), { id: 'c1' })
      .route(jobs.saveMatteDraft, ok(saved), { id: 'c1' });
    const { router } = renderApp('/services/remove-background?job=c1', api);
    await paintOneStroke();
    await waitFor(() => expect(screen.getByTestId('draft-state').getAttribute('data-state')).toBe('saved'), {
      timeout: 3000,
    });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await act(() => router.navigate('/'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
