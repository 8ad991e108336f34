import { screen } from '@testing-library/react';
import type { JobView } from '@imagestudio/contracts';
import { profileFixture } from '../../test/fixtures';
import { FakeApi, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const ok = (payload: unknown, status = 200) => ({ status, data: { status: 'OK', payload } });

function signedIn() {
  return withCatalog(new FakeApi())
    .on('GET /is-auth', { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .on('GET /user/profile', ok(profileFixture({ balance: 10 })))
    .on(
      'GET /tools/status',
      ok({
        generate: { available: false, provider: null },
        'remove-background': { available: true, provider: 'cpu' },
        upscale: { available: true, provider: 'cpu', models: ['photo'] },
      }),
    )
    .on('GET /tools/quote', (req) => ok({ tool: req.params.tool, count: 1, factor: 2, unit_price: 1, cost: 1 }));
}

/** An upscale that ended without a result, as GET /api/jobs/{id} answers. */
function endedJob(status: 'cancelled' | 'failed', error: string): JobView {
  return {
    id: 'u1',
    tool: 'upscale',
    status,
    progress: 40,
    stage: null,
    queue_position: null,
    eta_seconds: null,
    params: { factor: 2, model: 'photo', output_format: 'png' },
    cost: 1,
    refunded: true,
    error,
    input_name: 'coffee.png',
    input_url: 'https://s3/in.png',
    results: [],
    compose_sources: null,
    compositions: [],
    created_at: '2026-11-24T10:00:00Z',
    finished_at: '2026-11-24T10:01:00Z',
    deleted: false,
    expired: false,
    batch_id: null,
  } as unknown as JobView;
}

describe('how a job that ended without a result is said', () => {
  it('a cancel the customer chose is a calm status notice, not a red alert', async () => {
    renderApp(
      '/services/upscale?job=u1',
      signedIn().on('GET /jobs/u1', ok(endedJob('cancelled', 'Cancelled. Your tokens have been refunded.'))),
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
      signedIn().on(
        'GET /jobs/u1',
        ok(endedJob('failed', 'The image could not be processed. Your tokens have been refunded.')),
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
