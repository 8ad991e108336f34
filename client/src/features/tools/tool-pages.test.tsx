import type { JobName } from '@imagestudio/contracts';
import { endpoints } from '@imagestudio/contracts';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { toolStatusFixture } from '../../test/tool-status';

function signedIn(balance: number, available = true) {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ surname: 'L', balance })))
    .route(
      endpoints.tools.status,
      ok(toolStatusFixture({ off: available ? [] : ['generate'], models: { upscale: [] } })),
    )
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
}

describe('generate page', () => {
  it('shows the cost on the button and sends the prompt, count and size', async () => {
    const queued = jobFixture({
      id: 'j1',
      tool: 'generate',
      status: 'queued',
      progress: 0,
      queue_position: 1,
      cost: 2,
      input_name: null,
      input_url: null,
    });
    const api = signedIn(5).route(endpoints.tools.run.generate, ok(queued, 202));
    renderApp('/services/generate-image', api);
    fireEvent.change(await screen.findByLabelText(/Prompt/), { target: { value: 'a red fox' } });
    expect(screen.getByTestId('prompt-counter').textContent).toBe('9 / 1000');
    fireEvent.change(screen.getByLabelText('Number of images'), { target: { value: '2' } });
    const button = await screen.findByRole('button', { name: 'Generate - 2 tokens' });
    fireEvent.click(button);
    await waitFor(() => expect(api.last(endpoints.tools.run.generate)).toBeDefined());
    expect(api.last(endpoints.tools.run.generate)!.data).toMatchObject({
      prompt: 'a red fox',
      count: 2,
      size: '1024x1024',
    });
    expect(api.last(endpoints.tools.run.generate)!.headers['idempotency-key']).toBeDefined();
    expect(await screen.findByText('Position 1 in the queue')).toBeTruthy();
  });

  it('with too few tokens offers a purchase checkout accepts: the missing tokens, or the minimum top-up when more', async () => {
    const api = signedIn(0.5);
    renderApp('/services/generate-image', api);
    fireEvent.change(await screen.findByLabelText('Number of images'), { target: { value: '3' } });
    // 2.5 tokens missing, but 2.5 tokens (EUR 0.25) are below the EUR 1.00 minimum top-up: 10 tokens are offered
    const link = await screen.findByRole('link', { name: 'Buy 10 tokens' });
    expect(link.getAttribute('href')).toBe('/pricing?tokens=10');
  });
});

describe('landing pages', () => {
  it('a guest sees what the tool does, the price and a sign-up call to action', async () => {
    renderApp('/remove-background', withCatalog(new FakeApi()));
    expect(await screen.findByRole('heading', { name: 'Remove backgrounds in seconds' })).toBeTruthy();
    expect(screen.getByTestId('landing-price').textContent).toBe('Price: 1 token per photo');
    expect(screen.getByRole('link', { name: 'Sign up free' }).getAttribute('href')).toBe('/register');
  });
});
