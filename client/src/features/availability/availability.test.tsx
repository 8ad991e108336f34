import { JOB_NAMES, endpoints } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { JobName, StaticPageView } from '@imagestudio/contracts';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';
import { translate, type Translate } from '../../lib/i18n';
import { firstAvailableTool, worksSentence } from './availability';

// Whole-app renders on a shared 2-core machine can take seconds.
configure({ asyncUtilTimeout: 5000 });
jest.setTimeout(20_000);

const statusOf = (off: JobName[]) => toolStatusFixture({ off });
/**
 * Every tool off except `running`: the sentences below then name the same tools whatever else the registry
 * holds.
 */
const allBut = (...running: JobName[]) => JOB_NAMES.filter((tool) => !running.includes(tool));
/** Image generation off while the two image tools run (a default install without a generation model). */
const imageToolsOnly = allBut('remove-background', 'upscale');

/** A signed-in user's API whose tool status the test can change (`state.off`). */
function signedIn(off: JobName[]) {
  const state = { off };
  const api = withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ surname: 'L', balance: 5 })))
    .route(endpoints.tools.status, () => ok(statusOf(state.off)))
    .route(endpoints.tools.quote, (req) =>
      ok({
        tool: req.params.tool as JobName,
        count: Number(req.params.count),
        factor: null,
        model: null,
        unit_price: 1,
        cost: Number(req.params.count),
      }),
    );
  return { api, state };
}

const statusCalls = (api: FakeApi) => api.calls(endpoints.tools.status).length;

describe('tool availability', () => {
  it('/services (Start creating, Go to Services) leads to the first tool that can run', async () => {
    const off = renderApp('/services', signedIn(['generate']).api);
    await waitFor(() => expect(off.router.state.location.pathname).toBe('/services/remove-background'));

    const twoOff = renderApp('/services', signedIn(['generate', 'remove-background']).api);
    await waitFor(() => expect(twoOff.router.state.location.pathname).toBe('/services/upscale'));
  });

  it('/services leads to generation when it runs, and to its page (which says why) when nothing runs', async () => {
    const all = renderApp('/services', signedIn([]).api);
    await waitFor(() => expect(all.router.state.location.pathname).toBe('/services/generate-image'));
    const none = renderApp('/services', signedIn([...JOB_NAMES]).api);
    await waitFor(() => expect(none.router.state.location.pathname).toBe('/services/generate-image'));
    expect((await screen.findByTestId('tool-switched-off')).textContent).toContain(
      'No tool is running right now. Please try again later.',
    );
  });

  it('a switched-off tool page says so in plain words, links the tools that work, and has no prompt form', async () => {
    const { api } = signedIn(imageToolsOnly);
    renderApp('/services/generate-image', api);
    const panel = await screen.findByTestId('tool-switched-off');
    expect(within(panel).getByRole('status').textContent).toBe(
      'Image generation is switched off on this server right now. Background removal and upscaling work.',
    );
    const links = within(panel).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Remove background', '/services/remove-background'],
      ['Upscale image', '/services/upscale'],
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Generate image');
    expect(screen.queryByLabelText(/Prompt/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Generate/ })).toBeNull();
    expect(api.last(endpoints.tools.run.generate)).toBeUndefined();
  });

  it('refreshes the status while a tool page is open: the form appears when a worker comes, and goes when it leaves', async () => {
    const { api, state } = signedIn(imageToolsOnly);
    renderApp('/services/generate-image', api);
    await screen.findByTestId('tool-switched-off');
    const before = statusCalls(api);
    state.off = [];
    // A tab coming back into view asks at once (the page also asks every 10 s).
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(await screen.findByLabelText(/Prompt/)).toBeTruthy();
    expect(screen.queryByTestId('tool-switched-off')).toBeNull();
    expect(statusCalls(api)).toBeGreaterThan(before);

    state.off = allBut('remove-background');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    const panel = await screen.findByTestId('tool-switched-off');
    expect(panel.textContent).toContain(
      'Image generation is switched off on this server right now. Background removal works.',
    );
  });

  it('offers a tool whose worker starts on demand, saying that the first result waits for that start', async () => {
    const { api } = signedIn([]);
    const status = statusOf([]);
    status.upscale = { available: true, provider: null, models: ['photo'], onDemand: true };
    api.route(endpoints.tools.status, () => ok(status));
    renderApp('/services/upscale', api);
    const notice = await screen.findByTestId('tool-on-demand');
    expect(notice.textContent).toBe(
      'No server runs this tool at the moment: one starts when you run it, so your first result takes a little longer.',
    );
    expect(screen.queryByTestId('tool-switched-off')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
  });

  it('keeps a page that shows a job (?job=) even when its tool went away, so the outcome stays visible', async () => {
    const { api } = signedIn(['generate']);
    api.route(
      endpoints.jobs.get,
      ok(
        jobFixture({
          id: 'j9',
          tool: 'generate',
          status: 'failed',
          progress: 0,
          refunded: true,
          error: 'The image service declined this prompt.',
          input_name: null,
          input_url: null,
        }),
      ),
      { id: 'j9' },
    );
    renderApp('/services/generate-image?job=j9', api);
    expect(await screen.findByText('The image service declined this prompt.')).toBeTruthy();
    expect(screen.queryByTestId('tool-switched-off')).toBeNull();
  });

  it('the Services menu marks a switched-off tool and keeps its link', async () => {
    renderApp('/account/profile', signedIn(['upscale']).api);
    fireEvent.click(await screen.findByRole('button', { name: 'Services' }));
    const mark = await screen.findByTestId('service-off-upscale');
    expect(mark.closest('a')!.getAttribute('href')).toBe('/services/upscale');
    expect(mark.textContent).toContain('Upscale image (switched off right now)');
    expect(within(mark).getByText('Off')).toBeTruthy();
    expect(screen.queryByTestId('service-off-generate')).toBeNull();
  });

  it('helpers: first tool, and the sentence for the tools that work', () => {
    expect(firstAvailableTool(null)).toBe('generate');
    expect(firstAvailableTool(statusOf(['generate', 'remove-background']))).toBe('upscale');
    const english: Translate = (key, vars) => translate({}, key, vars);
    expect(worksSentence(english, [], 'en-US')).toBe('No tool is running right now. Please try again later.');
    expect(worksSentence(english, ['upscale'], 'en-US')).toBe('Upscaling works.');
    expect(worksSentence(english, ['remove-background', 'upscale'], 'en-US')).toBe(
      'Background removal and upscaling work.',
    );
    expect(worksSentence(english, ['generate', 'remove-background', 'upscale'], 'en-US')).toBe(
      'Image generation, background removal, and upscaling work.',
    );
  });

  it('makes the sentence with the German list rule and the German texts', () => {
    const german: Record<string, string> = {
      'client-availability.works.one': '{tools} funktioniert.',
      'client-availability.works.many': '{tools} funktionieren.',
      'client-tools.works.generate': 'die Bildgenerierung',
      'client-tools.works.remove-background': 'die Hintergrundentfernung',
      'client-tools.works.upscale': 'die Hochskalierung',
    };
    const t: Translate = (key, vars) => translate(german, key, vars);
    expect(worksSentence(t, ['upscale'], 'de-DE')).toBe('Die Hochskalierung funktioniert.');
    expect(worksSentence(t, ['generate', 'remove-background', 'upscale'], 'de-DE')).toBe(
      'Die Bildgenerierung, die Hintergrundentfernung und die Hochskalierung funktionieren.',
    );
  });

  it('pages for guests speak only of the tools that run: home, the landing page and About', async () => {
    const about: StaticPageView = {
      id: 4,
      slug: 'about',
      title: 'About',
      content: '<p>Three tools.</p>',
      is_terms: 0,
      is_privacy: 0,
    };
    const guest = (off: JobName[]) =>
      withCatalog(new FakeApi())
        .route(endpoints.tools.status, ok(statusOf(off)))
        .route(endpoints.catalog.staticPages, ok([{ ...about, content: '' }]))
        .route(endpoints.catalog.staticPage, ok(about), { id: '4' });

    renderApp('/', guest(imageToolsOnly));
    await screen.findByRole('heading', { name: 'Clean cut-outs and sharper photos in seconds', level: 1 });
    expect(screen.getByText('Background removal and upscaling in one place.')).toBeTruthy();
    cleanup();

    renderApp('/', guest([]));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/Turn ideas/));
    cleanup();

    renderApp('/generate-image', guest(imageToolsOnly));
    const card = await screen.findByTestId('tool-switched-off');
    expect(card.textContent).toBe(
      'Image generation is switched off on this server right now. Background removal and upscaling work.' +
        'Remove background' +
        'Upscale image',
    );
    expect(screen.queryByTestId('landing-price')).toBeNull();
    cleanup();

    renderApp('/about', guest(imageToolsOnly));
    // Each tool that is off has its sentence (more tools, more sentences), then the one about those that work.
    expect((await screen.findByTestId('tools-off-notice')).textContent).toMatch(
      /^Image generation is switched off on this server right now\. (.+ )?Background removal and upscaling work\.$/,
    );
    await screen.findByText('Three tools.');
  });
});
