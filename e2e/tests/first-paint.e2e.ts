import { test } from '../lib/fixtures';
import { check } from '../lib/harness';

/** How late every /api reply arrives in this test: a slow API must not hold back the page's first paint. */
const API_DELAY_MS = 2000;
const FCP_LIMIT_MS = 1500;
/** The home heading, whichever tools the run's workers offer (shell.e2e.ts). */
const HOME = /^(Turn ideas into images in seconds|Clean cut-outs and sharper photos in seconds)$/;
/** Needs the language list's answer (which language's strings): the one start-up call that may wait for another. */
const WAITS_FOR_LANGUAGES = '/api/localizations';

/** First contentful paint and each /api call's start, in ms from navigation start, read in the page. */
const READ_TIMINGS = `(() => ({
  fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  api: performance.getEntriesByType('resource')
    .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime }))
    .filter((r) => r.path.startsWith('/api/')),
}))()`;

test('home paints its hero before any API reply (FCP < 1.5 s with every reply 2 s late); start-up calls go out at once, each once', async ({
  ctx,
}) => {
  // A first visit warms the server (its first replies compile routes and fill caches), as a visitor finds it.
  const warm = await ctx.newPage();
  await warm.goto('/');
  await warm.getByRole('heading', { name: HOME, level: 1 }).waitFor();
  await warm.context().close();

  const page = await ctx.newPage();
  const asked = new Map<string, number>();
  let replies = 0;
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      const path = new URL(route.request().url()).pathname;
      asked.set(path, (asked.get(path) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
      await route.continue().catch(() => undefined);
    },
  );
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) replies += 1;
  });

  await page.goto('/');
  await page.getByRole('heading', { name: HOME, level: 1 }).waitFor();
  check(replies === 0, `the hero heading showed only after ${replies} API replies had arrived`);
  // Every call of the start-up (and the strings, which follow the language list) answered, then a moment more
  // for a late duplicate.
  await page.waitForLoadState('networkidle', { timeout: 30_000 });
  await page.waitForTimeout(1000);

  const timings = (await page.evaluate(READ_TIMINGS)) as { fcp: number | null; api: { path: string; start: number }[] };
  check(timings.fcp !== null, 'no first-contentful-paint entry');
  check(
    timings.fcp < FCP_LIMIT_MS,
    `first contentful paint at ${Math.round(timings.fcp)} ms, limit ${FCP_LIMIT_MS} ms`,
  );

  const twice = [...asked].filter(([, count]) => count > 1).map(([path, count]) => `${path} ${count}x`);
  check(twice.length === 0, `asked more than once in one page load: ${twice.join(', ')}`);

  // No chain: every call but the strings starts before the first reply could have come back.
  const first = Math.min(...timings.api.map((r) => r.start));
  const late = timings.api
    .filter((r) => r.path !== WAITS_FOR_LANGUAGES && r.start >= first + API_DELAY_MS)
    .map((r) => `${r.path} at ${Math.round(r.start)} ms`);
  check(
    late.length === 0,
    `started only after an earlier reply (first call at ${Math.round(first)} ms): ${late.join(', ')}`,
  );
  check(first < timings.fcp, `the first API call (${Math.round(first)} ms) went out after the first paint`);
});
