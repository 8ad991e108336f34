import { screen, within } from '@testing-library/react';
import { FakeApi, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

/** An OpenAPI document with one /api operation and the remove.bg-compatible path served from the site root. */
const doc = {
  servers: [{ url: 'https://studio.example/api' }],
  paths: {
    '/tools/remove-background': {
      post: { tags: ['Tools'], summary: 'Remove the background', security: [{ bearer: [] }] },
    },
    '/v1.0/removebg': {
      servers: [{ url: 'https://studio.example' }],
      post: {
        tags: ['remove.bg compatible'],
        summary: 'remove.bg-compatible call',
        security: [{ removeBgApiKey: [] }],
      },
    },
  },
};

let realFetch: typeof fetch;
beforeEach(() => {
  realFetch = global.fetch;
  global.fetch = jest.fn(async () => ({ ok: true, json: async () => doc })) as unknown as typeof fetch;
});
afterEach(() => {
  global.fetch = realFetch;
});

describe('/developers', () => {
  it('lists /api operations under /api and the /v1.0 ones at the site root, both as API-key calls', async () => {
    renderApp('/developers', withCatalog(new FakeApi()));
    const operations = await screen.findAllByTestId('operation');
    const texts = operations.map((li) => li.textContent);
    expect(texts).toEqual([
      expect.stringContaining('/api/tools/remove-background'),
      expect.stringContaining('/v1.0/removebg'),
    ]);
    expect(texts[1]).not.toContain('/api/v1.0');
    expect(within(operations[1]!).getByText('API key')).toBeTruthy();
  });

  it('has the "Switching from remove.bg" section with curl, Node.js and Python examples on this site', async () => {
    renderApp('/developers', withCatalog(new FakeApi()));
    const section = await screen.findByTestId('switching-from-removebg');
    expect(within(section).getByRole('heading', { name: 'Switching from remove.bg' })).toBeTruthy();
    await screen.findAllByTestId('operation');
    for (const name of ['curl', 'Node.js', 'Python'])
      expect(screen.getByTestId(`removebg-example-${name}`).textContent).toContain(
        'https://studio.example/v1.0/removebg',
      );
    expect(screen.getByTestId('removebg-example-curl').textContent).toContain('X-Api-Key');
    // The prices per size come from the settings (removebg_api_prices; the defaults here).
    expect(screen.getByTestId('removebg-prices').textContent).toBe(
      'Tokens per call: preview 0.3 · medium 0.6 · hd 0.8 · full 1',
    );
  });
});
