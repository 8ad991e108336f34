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
  it('a cancel the customer chose is a calm status notice, not a red alert', async () => {
    renderApp(
      '/services/upscale?job=u1',
      signedIn().route(endpoints.jobs.get, ok(endedJob('cancelled', 'Cancelled. Your tokens have been refunded.')), {
        id: 'u1',
      }),
    );
    const status = await screen.findByTestId('job-status');
    expect(status.getAttribute('data-status')).toBe('cancelled');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.classList.contains('job-status--cancelled')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failure stays an alert', async () => {
    renderApp(
      '/services/upscale?job=u1',
      signedIn().route(
        endpoints.jobs.get,
        ok(endedJob('failed', 'The image could not be processed. Your tokens have been refunded.')),
        { id: 'u1' },
      ),
    );
    const status = await screen.findByTestId('job-status');
    expect(status.getAttribute('role')).toBe('alert');
    expect(status.classList.contains('job-status--cancelled')).toBe(false);
  });

  it('an empty canvas invites a picture instead of showing a broken-image icon', async () => {
    renderApp('/services/upscale', signedIn());
    await screen.findByTestId('upload-zone');
    expect(document.querySelector('.lucide-image-off')).toBeNull();
    expect(document.querySelector('.empty-state .lucide-image-plus')).not.toBeNull();
  });
});
