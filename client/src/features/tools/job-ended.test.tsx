import { screen } from '@testing-library/react';
import { endpoints, type JobName, type JobView } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ off: ['generate'] })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: 2, model: 'photo', unit_price: 1, cost: 1 }),
    );
}

/** An upscale that ended without a result, as GET /api/jobs/{id} answers. */
function endedJob(status: 'cancelled' | 'failed', error: string): JobView {
  return jobFixture({
    id: 'u1',
    tool: 'upscale',
    status,
    progress: 40,
    params: { factor: 2, model: 'photo', output_format: 'png' },
    refunded: true,
    error,
    input_name: 'coffee.png',
    compose_sources: null,
    compositions: [],
    finished_at: '2026-11-24T10:01:00Z',
  });
}

describe('how a job that ended without a result is said', () => {
  it('a cancel the customer chose is a calm notice, not a red alert, said once in the status line', async () => {
    renderApp(
      '/services/upscale?job=u1',
      signedIn().route(endpoints.jobs.get, ok(endedJob('cancelled', 'Cancelled. Your tokens have been refunded.')), {
        id: 'u1',
      }),
    );
    const status = await screen.findByTestId('job-status');
    expect(status.getAttribute('data-status')).toBe('cancelled');
    expect(status.classList.contains('job-status--cancelled')).toBe(true);
    // The page's one live region says it; the notice is none of its own (it would be read twice).
    expect(status.getAttribute('role')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Cancelled. Your tokens have been refunded.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failure is said with the refund a service reason leaves out', async () => {
    renderApp(
      '/services/upscale?job=u1',
      signedIn().route(endpoints.jobs.get, ok(endedJob('failed', 'The prompt was declined.')), { id: 'u1' }),
    );
    const status = await screen.findByTestId('job-status');
    expect(status.classList.contains('job-status--cancelled')).toBe(false);
    expect(screen.getByTestId('job-refunded').textContent).toBe(' Your tokens have been refunded.');
    expect(screen.getByTestId('tool-announcement').textContent).toBe(
      'The prompt was declined. Your tokens have been refunded.',
    );
  });

  it('an empty canvas invites a picture instead of showing a broken-image icon', async () => {
    renderApp('/services/upscale', signedIn());
    await screen.findByTestId('upload-zone');
    expect(document.querySelector('.lucide-image-off')).toBeNull();
    expect(document.querySelector('.empty-state .lucide-image-plus')).not.toBeNull();
  });
});
