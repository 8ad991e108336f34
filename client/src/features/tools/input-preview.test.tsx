import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { endpoints, type BatchItemView, type BatchView, type JobName, type JobView } from '@imagestudio/contracts';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';

/**
 * The server's WebP preview of an input (`input_preview_url`, made at upload for HEIC, AVIF, TIFF and large
 * inputs) is the "before" of every view that shows the input: the input preview, both tools' comparisons and a
 * batch item's viewer and thumbnail.
 */

// jsdom decodes no image: a chosen .heic is one this browser cannot show (as in Chrome), anything else a PNG.
jest.mock('./upload-checks', () => ({
  ...jest.requireActual('./upload-checks'),
  inspectFile: async (file: File) =>
    file.name.endsWith('.heic')
      ? { bytes: file.size, format: 'heic', width: 4032, height: 3024, noPreview: true }
      : { bytes: file.size, format: 'png', width: 100, height: 80 },
}));

const INPUT = 'https://s3/inputs/u/j1/input.heic?X-Amz-Signature=1';
const PREVIEW = 'https://s3/inputs/u/j1/preview.webp?X-Amz-Signature=1';
const RESULT = { url: 'https://s3/out.png', width: 400, height: 300, format: 'png' as const, bytes: 1 };

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ off: ['generate'] })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    );
}

function heicJob(over: Partial<JobView> = {}): JobView {
  return jobFixture({
    id: 'j1',
    input_name: 'IMG_0001.HEIC',
    input_url: INPUT,
    input_preview_url: PREVIEW,
    results: [RESULT],
    ...over,
  });
}

/** The before side of the comparison on screen. */
const beforeSrc = () => screen.getByTestId('compare').querySelector('.compare__before')!.getAttribute('src');

beforeEach(() => {
  URL.createObjectURL = jest.fn(() => 'blob:chosen');
  URL.revokeObjectURL = jest.fn();
});

describe("an input's browser preview", () => {
  it('is the before of the background removal comparison', async () => {
    renderApp('/services/remove-background?job=j1', signedIn().route(endpoints.jobs.get, ok(heicJob()), { id: 'j1' }));
    await screen.findByTestId('compare');
    expect(beforeSrc()).toBe(PREVIEW);
  });

  it('is the before of the upscale comparison', async () => {
    const job = heicJob({ tool: 'upscale', params: { factor: 2 }, results: [{ ...RESULT, width: 800, height: 600 }] });
    renderApp('/services/upscale?job=j1', signedIn().route(endpoints.jobs.get, ok(job), { id: 'j1' }));
    await screen.findByTestId('compare');
    expect(beforeSrc()).toBe(PREVIEW);
  });

  it('replaces the "no preview" placeholder of a chosen HEIC once its job is accepted', async () => {
    const queued = heicJob({ status: 'queued', progress: 0, queue_position: 1, results: [] });
    const api = signedIn().route(endpoints.tools.run['remove-background'], ok(queued, 202));
    renderApp('/services/remove-background', api);
    const heic = new File([new Uint8Array(16)], 'IMG_0001.heic', { type: 'image/heic' });
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [heic] } });
    // Before the upload this browser has nothing to show but the placeholder.
    await waitFor(() =>
      expect(screen.getByTestId('input-preview').getAttribute('src')).toMatch(/^data:image\/svg\+xml/),
    );
    const run = (await screen.findByRole('button', { name: /^Remove background/ })) as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(screen.getByTestId('input-preview').getAttribute('src')).toBe(PREVIEW));
  });

  it('falls back to the input when the job has no preview (a small JPEG or PNG)', async () => {
    const plain = heicJob({ input_url: 'https://s3/in.png', input_preview_url: null });
    renderApp('/services/remove-background?job=j1', signedIn().route(endpoints.jobs.get, ok(plain), { id: 'j1' }));
    await screen.findByTestId('compare');
    expect(beforeSrc()).toBe('https://s3/in.png');
  });

  it('keeps the placeholder for a HEIC job from before previews were made', async () => {
    const old = heicJob({ input_preview_url: null });
    renderApp('/services/remove-background?job=j1', signedIn().route(endpoints.jobs.get, ok(old), { id: 'j1' }));
    await screen.findByTestId('compare');
    expect(beforeSrc()).toMatch(/^data:image\/svg\+xml/);
  });

  it("is a batch item's thumbnail before its result and the before of its viewer", async () => {
    const item = (id: string, over: Partial<BatchItemView>): BatchItemView => ({
      id,
      file_name: `${id}.heic`,
      status: 'queued',
      progress: 0,
      stage: null,
      queue_position: null,
      cost: 1,
      refunded: false,
      error: null,
      input_url: INPUT,
      input_preview_url: PREVIEW,
      results: [],
      retry_of: null,
      cutout_confidence: null,
      created_at: '2026-11-24T10:00:00Z',
      finished_at: null,
      ...over,
    });
    const items = [
      item('a', { status: 'succeeded', progress: 100, results: [RESULT], input_preview_url: `${PREVIEW}&a` }),
      item('b', { status: 'running', progress: 10, input_preview_url: `${PREVIEW}&b` }),
    ];
    const view: BatchView = {
      id: 'b1',
      tool: 'remove-background',
      status: 'running',
      params: {},
      cost: 2,
      refunded: 0,
      total: 2,
      counts: { queued: 0, running: 1, succeeded: 1, failed: 0, cancelled: 0 },
      skipped: [],
      created_at: '2026-11-24T10:00:00Z',
      finished_at: null,
      items,
      zip_url: '/batches/b1/zip',
    };
    renderApp('/services/remove-background?batch=b1', signedIn().route(endpoints.batches.get, ok(view), { id: 'b1' }));
    const [done, running] = await screen.findAllByTestId('batch-item');
    expect(running!.querySelector('img')?.getAttribute('src')).toBe(`${PREVIEW}&b`);
    fireEvent.click(within(done!).getByRole('button', { name: 'Open a.heic' }));
    const dialog = await screen.findByRole('dialog', { name: 'a.heic' });
    expect(dialog.querySelector('.compare__before')?.getAttribute('src')).toBe(`${PREVIEW}&a`);
  });
});
