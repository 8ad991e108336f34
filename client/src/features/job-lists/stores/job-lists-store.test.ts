import { endpoints, type JobPage } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../../test/fixtures';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../../../test/fake-api';

const { account, jobs } = endpoints;

async function signedIn(api: FakeApi) {
  withCatalog(api)
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(account.profile, okPayload(profileFixture()));
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  return store;
}

const page = (n: number): JobPage => ({
  items: [jobFixture({ id: `j${n}` })],
  page: n,
  per_page: 20,
  total: 21,
  last_page: 2,
});

describe('job lists', () => {
  it('sends the filters that are set, reloads the page shown, and forgets the rows on sign-out', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.route(jobs.list, (req) => okPayload(page(Number(req.params.page))));
    const history = store.jobLists.history;
    await history.load(2);
    expect(history).toMatchObject({ page: 2, lastPage: 2, total: 21, loaded: true, error: null });
    expect(history.items.map((job) => job.id)).toEqual(['j2']);

    await history.load();
    expect(api.last(jobs.list)?.params).toMatchObject({ page: 2 });

    history.setFilter('tool', 'upscale');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.last(jobs.list)?.params).toMatchObject({ page: 1, tool: 'upscale' });
    expect(api.last(jobs.list)?.params).not.toHaveProperty('status');

    api.route(account.logout, { status: 200, data: { status: 'OK' } });
    await store.auth.logout();
    expect(history.items).toEqual([]);
  });

  it("shows the server's own words when it gave some, else the list's failure text", async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    const { projects } = store.jobLists;
    api.route(endpoints.jobs.projects, errorReply('internal_error', 'The lists are resting.'));
    await projects.load(1);
    expect(projects.error).toBe('The lists are resting.');
    api.route(endpoints.jobs.projects, 'network');
    await projects.load(1);
    expect(projects.error).toBe('Could not load the list. Please try again.');
  });
});
