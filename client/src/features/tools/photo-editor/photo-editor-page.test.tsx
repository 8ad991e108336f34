import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { endpoints, type JobName, type JobView } from '@imagestudio/contracts';
import { batchAcceptedFixture, jobFixture, profileFixture } from '../../../test/fixtures';
import { errorReply, FakeApi, okPayload as ok, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { toolStatusFixture } from '../../../test/tool-status';

// The browser's image checks read pixels jsdom cannot decode: every chosen file is a 100 x 80 PNG here.
jest.mock('../upload-checks', () => ({
  ...jest.requireActual('../upload-checks'),
  inspectFile: async (file: Blob) => ({ bytes: file.size, format: 'png', width: 100, height: 80 }),
}));

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ off: ['generate'] })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    );
}

/** A finished background removal as GET /api/jobs/{id} answers, with the photo branch's compose sources. */
function cutoutJob(over: Partial<JobView> = {}): JobView {
  return jobFixture({
    id: 'c1',
    params: { output_format: 'png', mask_only: false },
    input_name: 'shoe.png',
    results: [{ url: 'https://s3/out.png', width: 40, height: 30, format: 'png', bytes: 1 }],
    compose_sources: { foreground_url: 'https://s3/fg.png', matte_url: 'https://s3/matte.png', width: 40, height: 30 },
    ...over,
  });
}

const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, { type: 'image/png' });

beforeEach(() => {
  URL.createObjectURL = jest.fn(() => 'blob:thumb');
  URL.revokeObjectURL = jest.fn();
});

describe('the editor after a cut-out', () => {
  const { jobs } = endpoints;

  it('sits beside the comparison with its settings, a free download and the touch-up brush', async () => {
    renderApp('/services/remove-background?job=c1', signedIn().route(jobs.get, ok(cutoutJob()), { id: 'c1' }));
    const editor = await screen.findByTestId('photo-editor');
    expect(screen.getByTestId('result')).toBeTruthy();
    expect(within(editor).getByRole('heading', { name: 'Finish the picture' })).toBeTruthy();
    const swatches = within(editor).getByRole('group', { name: 'Background' });
    expect(
      within(swatches)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Transparent', 'White', 'Black', 'Colour', 'Image', 'Blur']);
    expect(within(swatches).getByRole('button', { name: 'White' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(swatches).getByRole('button', { name: 'Blur' }));
    expect(within(swatches).getByRole('button', { name: 'Blur' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(editor).getByRole('slider', { name: 'Blur strength' })).toBeTruthy();
    const canvas = within(editor).getByLabelText('Canvas') as HTMLSelectElement;
    expect([...canvas.options].map((o) => o.text)).toEqual([
      'Square 2000 px - marketplaces',
      'Portrait 4:5 - social',
      'Original',
    ]);
    // Quality only for the lossy formats.
    expect(within(editor).getByRole('slider', { name: 'Quality' })).toBeTruthy();
    fireEvent.change(within(editor).getByLabelText('Format'), { target: { value: 'png' } });
    expect(within(editor).queryByRole('slider', { name: 'Quality' })).toBeNull();
    // Both shadows the engine draws are offered; the strength only with one.
    const shadow = within(editor).getByLabelText('Shadow') as HTMLSelectElement;
    expect([...shadow.options].map((o) => [o.value, o.text])).toEqual([
      ['none', 'None'],
      ['drop', 'Drop shadow'],
      ['contact', 'Contact shadow'],
    ]);
    expect(within(editor).queryByRole('slider', { name: 'Shadow strength' })).toBeNull();
    fireEvent.change(shadow, { target: { value: 'contact' } });
    expect(within(editor).getByRole('slider', { name: 'Shadow strength' })).toBeTruthy();
    expect(within(editor).getByRole('button', { name: 'Download - free' })).toBeTruthy();
    expect(within(editor).getByText('Edits and downloads of this cut-out cost no tokens.')).toBeTruthy();
    fireEvent.click(within(editor).getByRole('button', { name: 'Touch up' }));
    const brush = within(editor).getByTestId('brush-tools');
    expect(within(brush).getByRole('button', { name: 'Erase' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(brush).getByRole('slider', { name: 'Brush size' })).toBeTruthy();
    expect((within(brush).getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when the job has no stored cut-out to edit', async () => {
    renderApp(
      '/services/remove-background?job=c1',
      signedIn().route(jobs.get, ok(cutoutJob({ compose_sources: null })), { id: 'c1' }),
    );
    expect(await screen.findByTestId('photo-editor-unavailable')).toBeTruthy();
    expect(screen.queryByTestId('photo-editor')).toBeNull();
  });

  it('is not offered for a mask-only result', async () => {
    renderApp(
      '/services/remove-background?job=c2',
      signedIn().route(jobs.get, ok(cutoutJob({ id: 'c2', params: { output_format: 'png', mask_only: true } })), {
        id: 'c2',
      }),
    );
    await screen.findByTestId('result');
    expect(screen.queryByTestId('photo-editor')).toBeNull();
    expect(screen.queryByTestId('photo-editor-unavailable')).toBeNull();
  });
});

describe("the editor's preview", () => {
  const { jobs } = endpoints;
  const webp = (tag: string) => new Blob([tag], { type: 'image/webp' });

  beforeEach(() => {
    let n = 0;
    URL.createObjectURL = jest.fn(() => `blob:preview-${++n}`);
  });

  it('shows the picture the server renders once the settings rest, the newest settings winning', async () => {
    // Each preview call waits until the test lets it answer, so a change can arrive while one is in flight.
    const answers: Array<() => void> = [];
    const api = signedIn()
      .route(jobs.get, ok(cutoutJob()), { id: 'c1' })
      .route(
        jobs.composePreview,
        () => new Promise((resolve) => answers.push(() => resolve({ status: 200, data: webp('p') }))),
        { id: 'c1' },
      );
    renderApp('/services/remove-background?job=c1', api);
    const editor = await screen.findByTestId('photo-editor');
    await waitFor(() => expect(api.calls(jobs.composePreview)).toHaveLength(1), { timeout: 2000 });
    const first = api.last(jobs.composePreview)!.data as FormData;
    expect(Object.fromEntries(first.entries())).toMatchObject({
      crop_to_subject: 'true',
      margin: '8%',
      canvas: '2000x2000',
      background_color: '#ffffff',
      output_format: 'jpeg',
    });
    expect(first.get('matte')).toBeNull();
    // While that one renders, three changes in a row: the one in flight is dropped, and one request follows the last.
    const swatches = within(editor).getByRole('group', { name: 'Background' });
    fireEvent.click(within(swatches).getByRole('button', { name: 'Black' }));
    fireEvent.click(within(swatches).getByRole('button', { name: 'Blur' }));
    fireEvent.change(within(editor).getByRole('slider', { name: 'Margin' }), { target: { value: '12' } });
    answers[0]!();
    await waitFor(() => expect(api.calls(jobs.composePreview)).toHaveLength(2), { timeout: 2000 });
    const second = api.last(jobs.composePreview)!.data as FormData;
    expect([second.get('background_blur'), second.get('margin'), second.get('background_color')]).toEqual([
      '20',
      '12%',
      null,
    ]);
    expect(screen.queryByTestId('photo-preview')).toBeNull();
    answers[1]!();
    const shown = (await screen.findByTestId('photo-preview')) as HTMLImageElement;
    // The first answer came after its request was aborted: only the second's image is shown.
    expect(shown.getAttribute('src')).toBe('blob:preview-1');
    expect(shown.getAttribute('alt')).toBe('Preview of the finished picture');
    expect(shown.getAttribute('aria-busy')).toBe('false');
    expect(api.calls(jobs.composePreview)).toHaveLength(2);
  });

  it("says what the API refused, in the API's words", async () => {
    const api = signedIn()
      .route(jobs.get, ok(cutoutJob()), { id: 'c1' })
      .route(
        jobs.composePreview,
        errorReply('validation_failed', 'Please check the fields.', {
          canvas: ["The canvas is too large for this photo: at most twice the photo's size."],
        }),
      );
    renderApp('/services/remove-background?job=c1', api);
    const error = await screen.findByTestId('preview-error', undefined, { timeout: 2000 });
    expect(error.textContent).toBe("The canvas is too large for this photo: at most twice the photo's size.");
    expect(error.getAttribute('role')).toBe('alert');
  });
});

describe('a batch of background removals', () => {
  it('offers the same settings before it starts and sends them, with the background image, for every item', async () => {
    const api = signedIn().route(endpoints.batches.create, ok(batchAcceptedFixture(), 202));
    renderApp('/services/remove-background', api);
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('a.png'), png('b.png')] } });
    const finish = await screen.findByLabelText('Finish every picture (layout, background, format)');
    expect(screen.queryByTestId('photo-settings')).toBeNull();
    fireEvent.click(finish);
    const settings = screen.getByTestId('photo-settings');
    fireEvent.change(within(settings).getByLabelText('Canvas'), { target: { value: 'portrait45' } });
    fireEvent.click(within(settings).getByRole('button', { name: 'Image' }));
    const backdrop = png('studio.png');
    fireEvent.change(within(settings).getByLabelText('Background image'), { target: { files: [backdrop] } });
    fireEvent.change(within(settings).getByRole('slider', { name: 'Margin' }), { target: { value: '12' } });
    const run = (await screen.findByRole('button', { name: 'Process 2 images - 2 tokens' })) as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);

    await waitFor(() => expect(api.last(endpoints.batches.create)).toBeDefined());
    const form = api.last(endpoints.batches.create)!.data as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toMatchObject({
      tool: 'remove-background',
      crop_to_subject: 'true',
      margin: '12%',
      canvas: '1080x1350',
      output_format: 'jpeg',
      quality: '90',
    });
    expect(form.get('background_color')).toBeNull();
    expect((form.get('background_image') as File).name).toBe('studio.png');
    expect((form.getAll('images') as File[]).map((f) => f.name)).toEqual(['a.png', 'b.png']);
  });
});
