import { endpoints, type BatchView, type Endpoint, type JobView } from '@imagestudio/contracts';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../../../test/fake-api';
import { batchAcceptedFixture, jobFixture, profileFixture } from '../../../test/fixtures';
import type { RootStore } from '../../../stores/root-store';
import { toolStatusFixture } from '../../../test/tool-status';

const job: JobView = jobFixture({
  id: 'j1',
  tool: 'upscale',
  cost: 4,
  input_name: 'a.png',
  input_url: null,
  finished_at: '2026-11-24T10:00:05Z',
});

const accepted = batchAcceptedFixture({
  tool: 'upscale',
  cost: 4,
  items: [{ id: 'j1', file_name: 'a.png', status: 'queued' }],
});

const batch: BatchView = {
  id: 'b1',
  tool: 'upscale',
  status: 'succeeded',
  params: {},
  cost: 4,
  refunded: 0,
  total: 0,
  counts: { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 },
  skipped: [],
  created_at: '2026-11-24T10:00:00Z',
  finished_at: '2026-11-24T10:00:05Z',
  items: [],
  zip_url: '/api/batches/b1/zip',
};

/**
 * A tool's single run and its batch, started the way their pages start them. Each endpoint is kept as a plain
 * Endpoint so the tests below can give either one the same error replies.
 */
const runs = {
  single: {
    endpoint: endpoints.tools.run.upscale as Endpoint,
    accept: (api: FakeApi) => api.route(endpoints.tools.run.upscale, okPayload(job, 202)),
    acceptedId: 'j1',
    store: (root: RootStore) => root.tools.runs.upscale,
    submit: (root: RootStore) => root.tools.runs.upscale.submit(new FormData(), 4),
  },
  batch: {
    endpoint: endpoints.batches.create as Endpoint,
    accept: (api: FakeApi) => api.route(endpoints.batches.create, okPayload(accepted, 202)),
    acceptedId: 'b1',
    store: (root: RootStore) => root.tools.batches.upscale,
    submit: (root: RootStore) =>
      root.tools.batches.upscale.submit({ images: [new File(['x'], 'a.png', { type: 'image/png' })] }, {}, 4),
  },
};

async function signedIn(api: FakeApi, balance = 1.5) {
  withCatalog(api)
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, okPayload(profileFixture({ balance })))
    .route(endpoints.tools.status, okPayload(toolStatusFixture()))
    .route(endpoints.jobs.get, okPayload(job), { id: 'j1' })
    .route(endpoints.batches.get, okPayload(batch), { id: 'b1' });
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  return store;
}

const profileReads = (api: FakeApi) => api.calls(endpoints.account.profile).length;

describe.each(Object.entries(runs))('starting a %s run', (_kind, run) => {
  it('sends a fresh Idempotency-Key, refreshes the balance and follows what was accepted', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    run.accept(api);
    const before = profileReads(api);
    expect(await run.submit(root)).toMatchObject({ id: run.acceptedId });
    await run.submit(root);
    const keys = api.calls(run.endpoint).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[0]).not.toBe(keys[1]);
    expect(profileReads(api)).toBeGreaterThan(before);
    expect(run.store(root).phase).toBe('tracking');
    expect(run.store(root).problem).toBeNull();
  });

  it('on 402 says how many tokens are missing, counted from the refreshed balance', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.route(run.endpoint, errorReply('insufficient_tokens', 'Not enough tokens.'));
    api.route(endpoints.account.profile, okPayload(profileFixture({ balance: 1 })));
    expect(await run.submit(root)).toBeNull();
    expect(run.store(root).phase).toBe('idle');
    expect(run.store(root).problem).toEqual({ kind: 'insufficient', message: 'Not enough tokens.', missing: 3 });
  });

  it('on 503 says the tool is unavailable and asks which tools can run', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.route(run.endpoint, errorReply('tool_unavailable', 'Upscaling is not available right now.'));
    const statusReads = () => api.calls(endpoints.tools.status).length;
    const before = statusReads();
    expect(await run.submit(root)).toBeNull();
    expect(run.store(root).problem).toEqual({ kind: 'unavailable', message: 'Upscaling is not available right now.' });
    expect(statusReads()).toBe(before + 1);
  });

  it('on 422 shows the first field error and keeps the first message of each field', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.route(
      run.endpoint,
      errorReply('validation_failed', 'The given data was invalid.', { factor: ['Choose 2 or 4.', 'more'] }),
    );
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await run.submit(root)).toBeNull();
    warn.mockRestore();
    expect(run.store(root).problem).toEqual({
      kind: 'invalid',
      message: 'Choose 2 or 4.',
      fieldErrors: { factor: 'Choose 2 or 4.' },
    });
  });

  it('without a reply it could not start, and the app-wide catalogue tells the user', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.route(run.endpoint, 'network');
    expect(await run.submit(root)).toBeNull();
    expect(run.store(root).phase).toBe('idle');
    expect(run.store(root).problem?.kind).toBe('other');
    expect(root.ui.toasts.map((t) => t.kind)).toContain('error');
  });
});

describe('a batch refused for some of its files', () => {
  it('lists each bad file with its reasons under the request message', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.route(
      endpoints.batches.create,
      errorReply('validation_failed', 'One file cannot be processed.', { 'b.png': ['Not an image.'] }),
    );
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await runs.batch.submit(root)).toBeNull();
    warn.mockRestore();
    const store = root.tools.batches.upscale;
    expect(store.badFiles).toEqual([{ name: 'b.png', reasons: ['Not an image.'] }]);
    expect(store.problem).toEqual({
      kind: 'invalid',
      message: 'One file cannot be processed.',
      fieldErrors: { 'b.png': 'Not an image.' },
    });
  });
});
