import { fireEvent, screen, waitFor } from '@testing-library/react';
import { endpoints, type JobName } from '@imagestudio/contracts';
import { FakeApi, okPayload as ok, withCatalog } from '../../../test/fake-api';
import { jobFixture, profileFixture } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { toolStatusFixture } from '../../../test/tool-status';

/** The model choice of background removal: shown only while a live worker offers the operator's hq model. */

// jsdom decodes no image: every chosen file is a 100 x 80 PNG here.
jest.mock('../upload-checks', () => ({
  ...jest.requireActual('../upload-checks'),
  inspectFile: async (file: File) => ({ bytes: file.size, format: 'png', width: 100, height: 80 }),
}));

function signedIn(models: string[]) {
  const queued = jobFixture({ id: 'j1', status: 'queued', progress: 0, queue_position: 1, results: [] });
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(
      endpoints.tools.status,
      ok(toolStatusFixture({ off: ['generate'], models: { 'remove-background': models } })),
    )
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    )
    .route(endpoints.tools.run['remove-background'], ok(queued, 202));
}

beforeEach(() => {
  URL.createObjectURL = jest.fn(() => 'blob:chosen');
  URL.revokeObjectURL = jest.fn();
});

async function runWith(api: FakeApi): Promise<FormData> {
  fireEvent.change(await screen.findByLabelText('Image'), {
    target: { files: [new File([new Uint8Array(16)], 'a.png', { type: 'image/png' })] },
  });
  const run = (await screen.findByRole('button', { name: /^Remove background/ })) as HTMLButtonElement;
  await waitFor(() => expect(run.disabled).toBe(false));
  fireEvent.click(run);
  await waitFor(() => expect(api.last(endpoints.tools.run['remove-background'])).toBeDefined());
  return api.last(endpoints.tools.run['remove-background'])!.data as FormData;
}

describe('the matting model choice', () => {
  it('is offered when a worker runs hq, and sends model=hq when chosen', async () => {
    const api = signedIn(['standard', 'hq']);
    renderApp('/services/remove-background', api);
    const select = (await screen.findByLabelText('Model')) as HTMLSelectElement;
    expect(select.value).toBe('standard');
    fireEvent.change(select, { target: { value: 'hq' } });
    expect((await runWith(api)).get('model')).toBe('hq');
  });

  it('is not shown without hq, and no model field is sent', async () => {
    const api = signedIn([]);
    renderApp('/services/remove-background', api);
    await screen.findByLabelText('Output format');
    expect(screen.queryByLabelText('Model')).toBeNull();
    expect((await runWith(api)).get('model')).toBeNull();
  });
});

describe('the output format before a run', () => {
  it("offers the editor's formats and sends the one chosen", async () => {
    const api = signedIn([]);
    renderApp('/services/remove-background', api);
    const select = (await screen.findByLabelText('Output format')) as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['png', 'PNG'],
      ['webp', 'WebP'],
      ['avif', 'AVIF'],
      ['jpeg', 'JPEG'],
    ]);
    fireEvent.change(select, { target: { value: 'avif' } });
    expect((await runWith(api)).get('output_format')).toBe('avif');
  });

  it('shows a JPEG job opened again with its format (no longer falling back to PNG)', async () => {
    const done = jobFixture({
      id: 'j2',
      params: { output_format: 'jpeg', mask_only: false },
      results: [{ url: 'https://s3/out.jpg', width: 100, height: 80, format: 'jpeg', bytes: 4000, subject_box: null }],
    });
    const api = signedIn([]).route(endpoints.jobs.get, ok(done), { id: 'j2' });
    renderApp('/services/remove-background?job=j2', api);
    await screen.findByTestId('result');
    await waitFor(() => expect((screen.getByLabelText('Output format') as HTMLSelectElement).value).toBe('jpeg'));
    // A JPEG is opaque (flattened on white): no backdrop to choose behind it.
    expect(screen.queryByRole('group', { name: 'Preview background' })).toBeNull();
  });
});
