import { screen } from '@testing-library/react';
import { endpoints, type JobName, type JobView } from '@imagestudio/contracts';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';

/** The background removal page suggests a touch-up when the job's cut-out confidence is doubtful. */

const RESULT = { url: 'https://s3/out.png', width: 400, height: 300, format: 'png' as const, bytes: 1 };
const HINT = /This cut-out may need a touch-up/;

function openJob(over: Partial<JobView>) {
  const job = jobFixture({ id: 'j1', input_url: 'https://s3/in.png', results: [RESULT], ...over });
  const api = withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ off: ['generate'] })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    )
    .route(endpoints.jobs.get, ok(job), { id: 'j1' });
  renderApp('/services/remove-background?job=j1', api);
}

describe('the cut-out confidence hint', () => {
  it('shows for a doubtful cut-out, suggesting the touch-up brush', async () => {
    openJob({ cutout_confidence: 0.42 });
    await screen.findByTestId('compare');
    expect(screen.getByTestId('cutout-doubtful').textContent).toMatch(HINT);
    expect(screen.getByTestId('cutout-doubtful').textContent).toMatch(/brush below/);
  });

  it.each([
    ['a confident cut-out', { cutout_confidence: 0.97 }],
    ['a job from before the score', { cutout_confidence: null }],
    ['a mask, which has no brush to offer', { cutout_confidence: 0.42, params: { mask_only: true } }],
  ])('does not show for %s', async (_label, over) => {
    openJob(over);
    await screen.findByTestId('compare');
    expect(screen.queryByTestId('cutout-doubtful')).toBeNull();
    expect(screen.queryByText(HINT)).toBeNull();
  });
});
