import type { BatchView, JobView } from '@imagestudio/contracts';
import { FakeApi, makeStore, okPayload, withCatalog, type Reply } from '../test/fake-api';
import { profileFixture } from '../test/fixtures';
import type { RootStore } from './root-store';

const job: JobView = {
  id: 'j1',
  tool: 'upscale',
  status: 'succeeded',
  progress: 100,
  stage: null,
  queue_position: null,
  results: [],
  cost: 4,
  refunded: false,
  error: null,
  params: {},
  input_url: null,
  created_at: '2026-11-24T10:00:00Z',
  finished_at: '2026-11-24T10:00:05Z',
} as unknown as JobView;

const batch = {
  id: 'b1',
  tool: 'upscale',
  status: 'succeeded',
  items: [],
} as unknown as BatchView;

const error = (status: number, message: string, errors?: Record<string, string[]>): Reply => ({
  status,
  data: { status: 'ERROR', code: 'x', message, ...(errors ? { errors } : {}) },
});

/** A tool's single run and its batch, started the way their pages start them. */
const runs = {
  single: {
    route: 'POST /tools/upscale',
    store: (root: RootStore) => root.tools.runs.upscale,
    submit: (root: RootStore) => root.tools.runs.upscale.submit(new FormData(), 4),
  },
  batch: {
    route: 'POST /batches',
    store: (root: RootStore) => root.tools.batches.upscale,
    submit: (root: RootStore) =>
      root.tools.batches.upscale.submit({ images: [new File(['x'], 'a.png', { type: 'image/png' })] }, {}, 4),
  },
};

async function signedIn(api: FakeApi, balance = 1.5) {
  withCatalog(api)
    .on('GET /is-auth', { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .on('GET /user/profile', okPayload(profileFixture({ balance })))
    .on('GET /tools/status', okPayload({}))
    .on('GET /jobs/j1', okPayload(job))
    .on('GET /batches/b1', okPayload(batch));
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  return store;
}

const profileReads = (api: FakeApi) => api.seen.filter((r) => r.method === 'GET' && r.url === '/user/profile').length;

describe.each(Object.entries(runs))('starting a %s run', (_kind, run) => {
  it('sends a fresh Idempotency-Key, refreshes the balance and follows what was accepted', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.on(run.route, {
      status: 202,
      data: { status: 'OK', payload: run.route === 'POST /batches' ? { id: 'b1' } : job },
    });
    const before = profileReads(api);
    expect(await run.submit(root)).toMatchObject({ id: run.route === 'POST /batches' ? 'b1' : 'j1' });
    await run.submit(root);
    const keys = api.seen.filter((r) => `${r.method} ${r.url}` === run.route).map((r) => r.headers['idempotency-key']);
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
    api.on(run.route, error(402, 'Not enough tokens.'));
    api.on('GET /user/profile', okPayload(profileFixture({ balance: 1 })));
    expect(await run.submit(root)).toBeNull();
    expect(run.store(root).phase).toBe('idle');
    expect(run.store(root).problem).toEqual({ kind: 'insufficient', message: 'Not enough tokens.', missing: 3 });
  });

  it('on 503 says the tool is unavailable and asks which tools can run', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.on(run.route, error(503, 'Upscaling is not available right now.'));
    const statusReads = () => api.seen.filter((r) => r.url === '/tools/status').length;
    const before = statusReads();
    expect(await run.submit(root)).toBeNull();
    expect(run.store(root).problem).toEqual({ kind: 'unavailable', message: 'Upscaling is not available right now.' });
    expect(statusReads()).toBe(before + 1);
  });

  it('on 422 shows the first field error and keeps the first message of each field', async () => {
    const api = new FakeApi();
    const root = await signedIn(api);
    api.on(run.route, error(422, 'The given data was invalid.', { factor: ['Choose 2 or 4.', 'more'] }));
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
    api.on(run.route, 'network');
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
    api.on('POST /batches', error(422, 'One file cannot be processed.', { 'b.png': ['Not an image.'] }));
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
