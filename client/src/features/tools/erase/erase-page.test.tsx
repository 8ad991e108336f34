import { fireEvent, screen, waitFor } from '@testing-library/react';
import { endpoints, type JobName } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../../test/fixtures';
import { FakeApi, okPayload as ok, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { toolStatusFixture } from '../../../test/tool-status';
import type { BrushStroke } from '../photo-editor/matte-edits';

// jsdom has no 2D canvas and loads no images: the photo and its painting are stood in for, recording what they
// are asked to paint (the strokes shown are the strokes sent).
const repainted: BrushStroke[][] = [];
jest.mock('../photo-editor/preview-canvas', () => ({
  ...jest.requireActual('../photo-editor/preview-canvas'),
  loadImage: async () => ({ naturalWidth: 40, naturalHeight: 30 }),
}));
// The browser's own check of a chosen file decodes it: a 40 x 30 picture, one this browser cannot show when a HEIC.
jest.mock('../upload-checks', () => ({
  ...jest.requireActual('../upload-checks'),
  inspectFile: async (file: File) =>
    file.name.endsWith('.heic')
      ? { bytes: file.size, format: 'heic', width: 40, height: 30, noPreview: true }
      : { bytes: file.size, format: 'png', width: 40, height: 30 },
}));
jest.mock('./erase-surfaces', () => ({
  EraseSurfaces: class {
    scale = 1;
    constructor(
      _photo: unknown,
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
    maskPng = async () => new Blob(['mask'], { type: 'image/png' });
  },
}));

const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, { type: 'image/png' });

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture()))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    );
}

beforeEach(() => {
  repainted.length = 0;
  URL.createObjectURL = jest.fn(() => 'blob:photo');
  URL.revokeObjectURL = jest.fn();
  // The painting is 40 x 30 CSS px on screen: one photo pixel per CSS pixel.
  jest
    .spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect')
    .mockReturnValue({ left: 0, top: 0, width: 40, height: 30, right: 40, bottom: 30, x: 0, y: 0 } as DOMRect);
});

afterEach(() => jest.restoreAllMocks());

/** One keyboard stroke: down at the centre, two steps right, up. */
function keyStroke(canvas: HTMLElement) {
  for (const key of [' ', 'ArrowRight', 'ArrowRight', ' ']) fireEvent.keyDown(canvas, { key });
}

const strokes = (canvas: HTMLElement) => Number(canvas.getAttribute('data-strokes'));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('erase page', () => {
  it('waits for a stroke; undo, redo and clear change the painting; Run sends the photo with its mask', async () => {
    const queued = jobFixture({ id: 'e1', tool: 'erase', status: 'queued', progress: 0, queue_position: 1 });
    const api = signedIn().route(endpoints.tools.run.erase, ok(queued, 202));
    renderApp('/services/erase', api);
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('street.png')] } });
    const canvas = await screen.findByRole('img', { name: 'Photo: paint over what to erase' });
    const run = await screen.findByRole('button', { name: 'Erase - 1 token' });
    expect((run as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Paint over what to erase first.')).toBeTruthy();
    expect(button('Undo').disabled && button('Redo').disabled && button('Clear').disabled).toBe(true);

    keyStroke(canvas);
    await waitFor(() => expect(strokes(canvas)).toBe(1));
    expect((run as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('Paint over what to erase first.')).toBeNull();
    fireEvent.click(button('Undo'));
    expect(strokes(canvas)).toBe(0);
    expect(repainted.at(-1)).toEqual([]);
    expect((run as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button('Redo'));
    expect(strokes(canvas)).toBe(1);
    expect(repainted.at(-1)![0]!.points).toEqual([
      { x: 20, y: 15 },
      { x: 28, y: 15 },
      { x: 36, y: 15 },
    ]);
    // The keyboard's undo and redo.
    fireEvent.keyDown(canvas, { key: 'z', ctrlKey: true });
    expect(strokes(canvas)).toBe(0);
    fireEvent.keyDown(canvas, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(strokes(canvas)).toBe(1);
    // A new stroke forgets what could be redone; Clear drops everything.
    keyStroke(canvas);
    await waitFor(() => expect(strokes(canvas)).toBe(2));
    expect(button('Redo').disabled).toBe(true);
    fireEvent.click(button('Clear'));
    expect(strokes(canvas)).toBe(0);
    expect((run as HTMLButtonElement).disabled).toBe(true);

    keyStroke(canvas);
    await waitFor(() => expect(strokes(canvas)).toBe(1));
    fireEvent.change(screen.getByLabelText('Fill with (optional)'), { target: { value: ' a brick wall ' } });
    fireEvent.click(run);
    await waitFor(() => expect(api.last(endpoints.tools.run.erase)).toBeDefined());
    const sent = api.last(endpoints.tools.run.erase)!.data as FormData;
    expect((sent.get('image') as File).name).toBe('street.png');
    // The painting's mask (the stand-in's four bytes), as a PNG part of its own.
    expect([(sent.get('mask') as File).name, (sent.get('mask') as File).size]).toEqual(['mask.png', 4]);
    expect(sent.get('prompt')).toBe('a brick wall');
    expect(sent.get('output_format')).toBe('png');
    expect(await screen.findByText('Position 1 in the queue')).toBeTruthy();
  });

  it('says why a photo this browser cannot show cannot be painted on, and does not run', async () => {
    renderApp('/services/erase', signedIn());
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('holiday.heic')] } });
    const notice = await screen.findByTestId('erase-no-preview');
    expect(notice.textContent).toBe(
      'This browser cannot show this photo, so it cannot be painted on. Choose a JPEG, PNG or WebP copy of it.',
    );
    expect(screen.queryByRole('img', { name: 'Photo: paint over what to erase' })).toBeNull();
    expect(button('Erase - 1 token').disabled).toBe(true);
  });

  it('takes one photo even when several are chosen: no batches here', async () => {
    renderApp('/services/erase', signedIn());
    const input = (await screen.findByLabelText('Image')) as HTMLInputElement;
    expect(input.multiple).toBe(false);
    expect(input.accept).not.toContain('zip');
    fireEvent.change(input, { target: { files: [png('one.png'), png('two.png')] } });
    await screen.findByRole('img', { name: 'Photo: paint over what to erase' });
    expect(screen.queryByTestId('batch-choice')).toBeNull();
    expect(screen.getByText(/one\.png/)).toBeTruthy();
  });
});
