import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { endpoints, type JobName, type JobView } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ models: { upscale: [] } })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: 2, model: 'photo', unit_price: 1, cost: 1 }),
    );
}

const RESULT = {
  url: 'https://s3/out.png',
  width: 256,
  height: 192,
  format: 'png' as const,
  bytes: 9000,
  subject_box: null,
};

function upscaleJob(over: Partial<JobView>): JobView {
  return jobFixture({
    id: 'u1',
    tool: 'upscale',
    status: 'running',
    progress: 40,
    stage: 'processing:2/6',
    params: { factor: 2, model: 'photo', output_format: 'png' },
    input_name: 'coffee.png',
    results: [],
    ...over,
  });
}

/** The page's live regions: role status or alert, or aria-live other than off. */
function liveRegions(): Element[] {
  return [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')].filter(
    (el) => el.getAttribute('aria-live') !== 'off',
  );
}

/** The job's polls (the tracker's fallback without EventSource, every 1.5 s) answer from `replies` in turn. */
function jobReplies(api: FakeApi, replies: JobView[]): void {
  let call = 0;
  api.route(endpoints.jobs.get, () => ok(replies[Math.min(call++, replies.length - 1)]!), { id: 'u1' });
}

const POLL = { timeout: 5000 };

describe('the end of a run', () => {
  it('moves the focus to the result\'s heading and says "Done" in the one status line', async () => {
    const api = signedIn();
    const running = upscaleJob({});
    jobReplies(api, [running, running, upscaleJob({ status: 'succeeded', progress: 100, results: [RESULT] })]);
    renderApp('/services/upscale?job=u1', api);
    await screen.findByTestId('job-stage');
    // Nothing is said while it runs (its percent would be read at every step).
    expect(screen.getByTestId('tool-announcement').textContent).toBe('');
    const heading = await screen.findByTestId('result-heading', {}, POLL);
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.textContent).toBe('Result');
    expect(screen.getByTestId('tool-announcement').textContent).toBe('Done');
    // The canvas is no live region: the result's buttons are not read out.
    expect(screen.getByTestId('tool-canvas').getAttribute('aria-live')).toBeNull();
    expect(liveRegions().filter((el) => el.textContent?.includes('Done'))).toHaveLength(1);
  });

  it('leaves the focus where it is for a job that had ended before the page opened it', async () => {
    const api = signedIn();
    jobReplies(api, [upscaleJob({ status: 'succeeded', progress: 100, results: [RESULT] })]);
    renderApp('/services/upscale?job=u1', api);
    const heading = await screen.findByTestId('result-heading');
    expect(document.activeElement).not.toBe(heading);
  });
});

describe('Cancel', () => {
  it('says "Cancelling..." at once and stays disabled until the job has stopped, then one message with the refund', async () => {
    const api = signedIn();
    const running = upscaleJob({ eta_seconds: 5 });
    const cancelled = upscaleJob({
      status: 'cancelled',
      refunded: true,
      error: 'Cancelled. Your tokens have been refunded.',
    });
    // The server answers the cancel at once with the job still running: the worker stops at its next tile.
    const polls = [running, running, running, cancelled];
    jobReplies(api, polls);
    api.route(endpoints.jobs.cancel, ok(running), { id: 'u1' });
    renderApp('/services/upscale?job=u1', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    const button = await screen.findByRole('button', { name: 'Cancelling...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('tool-announcement').textContent).toBe('Cancelling...');
    expect(screen.queryByTestId('job-time-left')).toBeNull();
    // Polls after the server's answer still say running: the page keeps saying "Cancelling...".
    await act(() => new Promise((resolve) => setTimeout(resolve, 1700)));
    expect(screen.getByTestId('job-status').getAttribute('data-status')).toBe('running');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Cancelling...' }) as HTMLButtonElement).disabled).toBe(true);

    const message = await screen.findByTestId('job-ended-message', {}, { timeout: 8000 });
    expect(message.textContent).toBe('Cancelled. Your tokens have been refunded.');
    await waitFor(() => expect(document.activeElement).toBe(message));
    expect(screen.getByTestId('tool-announcement').textContent).toBe('Cancelled. Your tokens have been refunded.');
    // Said once: the message itself is no live region inside another.
    expect(liveRegions().filter((el) => el.textContent?.includes('refunded'))).toHaveLength(1);
    // And shown once (the status line is for screen readers only).
    const shown = screen
      .getAllByText('Cancelled. Your tokens have been refunded.')
      .filter((el) => !el.classList.contains('visually-hidden'));
    expect(shown).toHaveLength(1);
  }, 15_000);

  it('offers Cancel again when the request did not reach the server', async () => {
    const api = signedIn();
    jobReplies(api, [upscaleJob({})]);
    api.routeRaw(endpoints.jobs.cancel, 'network', { id: 'u1' });
    renderApp('/services/upscale?job=u1', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(api.seen.some((r) => r.url.endsWith('/jobs/u1/cancel'))).toBe(true));
    const again = await screen.findByRole('button', { name: 'Cancel' });
    expect((again as HTMLButtonElement).disabled).toBe(false);
  });
});
