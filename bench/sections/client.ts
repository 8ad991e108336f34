/**
 * The browser client as a visitor receives it: per route, the JavaScript and CSS it downloads (bytes on the
 * wire as Chromium received them, and the brotli size of the same files), the request count, and First
 * Contentful Paint, Largest Contentful Paint and Cumulative Layout Shift measured in headless Chromium with
 * the cache disabled (median of RUNS page loads each). Goals: a guest's home page needs at most 120 KB of
 * JavaScript after brotli, and shifts less than 0.05.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@imagestudio/runtime/testing';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { chromium, type BrowserContext } from 'playwright-core';
import { fromRoot } from '../../server/src/config';
import { buildClientIfNeeded } from '../../scripts/lib/client-build';
import { startBenchApp } from '../lib/app';
import { percentile } from '../lib/load';
import { sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';
import { verifiedBenchUser } from '../lib/users';

const RUNS = sized(5, 1);
const HOME_JS_GOAL_KB = 120;
const CLS_GOAL = 0.05;
const CHROMIUM = CHROMIUM_PATH;
const PASSWORD = 'Bench1234';

const GUEST_ROUTES = ['/', '/pricing', '/generate-image', '/upscale-image', '/login', '/register'];
const SIGNED_IN_ROUTES = ['/services/upscale', '/account/profile'];

/** What one page load measured. */
interface PageLoad {
  jsWire: number;
  cssWire: number;
  jsBrotli: number;
  cssBrotli: number;
  requests: number;
  fcp: number;
  lcp: number;
  cls: number;
}

/**
 * Collects paint, largest paint and layout shifts from the first moment of the page (init script). Observer
 * callbacks arrive late on a busy machine, so READ_VITALS also drains what each observer still holds.
 */
const VITALS_SCRIPT = `
  window.__vitals = { fcp: 0, lcp: 0, cls: 0 };
  const onEntries = (entries) => {
    for (const e of entries) {
      if (e.entryType === 'paint' && e.name === 'first-contentful-paint') window.__vitals.fcp = e.startTime;
      if (e.entryType === 'largest-contentful-paint') window.__vitals.lcp = Math.max(window.__vitals.lcp, e.startTime);
      if (e.entryType === 'layout-shift' && !e.hadRecentInput) window.__vitals.cls += e.value;
    }
  };
  window.__observers = ['paint', 'largest-contentful-paint', 'layout-shift'].map((type) => {
    const observer = new PerformanceObserver((list) => onEntries(list.getEntries()));
    observer.observe({ type, buffered: true });
    return observer;
  });
  window.__drainVitals = () => {
    for (const observer of window.__observers) onEntries(observer.takeRecords());
    return window.__vitals;
  };
`;

/** Same-origin resources the page loaded, and its vitals; a string, so the bundler adds nothing to it. */
const READ_PAGE = `(() => ({
  resources: performance.getEntriesByType('resource').map((r) => ({ path: new URL(r.name).pathname, wire: r.encodedBodySize, sameOrigin: new URL(r.name).origin === location.origin })),
  ...window.__drainVitals(),
}))()`;

/** Brotli size (quality 11, as the build writes it) of a built asset, cached per file. */
function brotliSizer(distDir: string): (urlPath: string) => number {
  const sizes = new Map<string, number>();
  return (urlPath) => {
    const cached = sizes.get(urlPath);
    if (cached !== undefined) return cached;
    const file = path.join(distDir, decodeURIComponent(urlPath));
    const size = fs.existsSync(file)
      ? zlib.brotliCompressSync(fs.readFileSync(file), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length
      : 0;
    sizes.set(urlPath, size);
    return size;
  };
}

/** Loads `url` once in a fresh page with the cache disabled and reads what it downloaded and painted. */
async function loadOnce(
  context: BrowserContext,
  url: string,
  brotliSize: (urlPath: string) => number,
): Promise<PageLoad> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(url);
    // Every page has one heading; once it shows and the network is quiet, the page is complete. Then give
    // late layout shifts and the final largest paint a moment to be reported.
    await page.locator('h1').first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const measured = (await page.evaluate(READ_PAGE)) as {
      resources: { path: string; wire: number; sameOrigin: boolean }[];
      fcp: number;
      lcp: number;
      cls: number;
    };
    const load: PageLoad = {
      jsWire: 0,
      cssWire: 0,
      jsBrotli: 0,
      cssBrotli: 0,
      requests: 1 + measured.resources.length,
      fcp: measured.fcp,
      lcp: measured.lcp,
      cls: measured.cls,
    };
    for (const r of measured.resources) {
      if (!r.sameOrigin) continue;
      if (r.path.endsWith('.js')) {
        load.jsWire += r.wire;
        load.jsBrotli += brotliSize(r.path);
      } else if (r.path.endsWith('.css')) {
        load.cssWire += r.wire;
        load.cssBrotli += brotliSize(r.path);
      }
    }
    return load;
  } finally {
    await page.close();
  }
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
const median = (loads: PageLoad[], key: keyof PageLoad) =>
  percentile(
    loads.map((l) => l[key]),
    50,
  );

/** Signs the context's browser in through the API, as the login form does. */
async function signIn(context: BrowserContext, base: string, email: string): Promise<void> {
  await context.request.get(`${base}/api/csrf`); // a guest's session and XSRF token come from here only
  const xsrf = (await context.cookies(base)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.post(`${base}/api/login`, {
    headers: { 'x-xsrf-token': decodeURIComponent(xsrf) },
    data: { username: email, password: PASSWORD },
  });
  if (!res.ok()) throw new Error(`bench sign-in answered ${res.status()}`);
}

export default async function client(): Promise<BenchSection> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  buildClientIfNeeded();
  const app = await startBenchApp({ RATE_LIMIT_PREFIX: `rl-bench-${randomUUID().slice(0, 8)}` });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  const brotliSize = brotliSizer(fromRoot(app.config, app.config.CLIENT_DIST_DIR));
  const rows: BenchSection['rows'] = [];
  const goals: BenchSection['goals'] = [];
  try {
    const email = await verifiedBenchUser(app, PASSWORD, 'client');

    const guest = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const member = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Nothing leaves the machine: third-party lookups (the phone input's country service) are refused.
    for (const context of [guest, member]) {
      await context.addInitScript(VITALS_SCRIPT);
      await context.route(
        (url) => url.origin !== app.base,
        (route) => route.abort(),
      );
    }
    await signIn(member, app.base, email);
    const plan = [
      ...GUEST_ROUTES.map((route) => ({ route, who: 'guest', context: guest })),
      ...SIGNED_IN_ROUTES.map((route) => ({ route, who: 'signed in', context: member })),
    ];
    await loadOnce(guest, app.base, brotliSize); // warm-up: first compilation of the server's routes
    for (const { route, who, context } of plan) {
      const loads: PageLoad[] = [];
      for (let i = 0; i < RUNS; i += 1) loads.push(await loadOnce(context, `${app.base}${route}`, brotliSize));
      rows.push({
        route: `${route} (${who})`,
        'JS KB wire': kb(median(loads, 'jsWire')),
        'JS KB br': kb(median(loads, 'jsBrotli')),
        'CSS KB wire': kb(median(loads, 'cssWire')),
        'CSS KB br': kb(median(loads, 'cssBrotli')),
        requests: median(loads, 'requests'),
        'FCP ms': Math.round(median(loads, 'fcp')),
        'LCP ms': Math.round(median(loads, 'lcp')),
        CLS: Math.round(median(loads, 'cls') * 1000) / 1000,
      });
      if (route === '/' && who === 'guest') {
        const homeJs = kb(median(loads, 'jsBrotli'));
        const homeCls = Math.round(median(loads, 'cls') * 1000) / 1000;
        goals.push({
          label: 'home page JavaScript after brotli (guest), KB',
          value: homeJs,
          target: `<= ${HOME_JS_GOAL_KB}`,
          met: homeJs <= HOME_JS_GOAL_KB,
        });
        goals.push({
          label: 'home page cumulative layout shift (guest)',
          value: homeCls,
          target: `< ${CLS_GOAL}`,
          met: homeCls < CLS_GOAL,
        });
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
    await app.close();
  }
  return {
    name: 'client',
    rows,
    goals,
    notes: [
      `headless Debian Chromium through playwright-core, 1280x800, cache disabled, median of ${RUNS} loads per route; the API serves the built client from ${app.config.CLIENT_DIST_DIR}`,
      'wire = response bodies as received (after Content-Encoding; Chromium offers gzip, br and zstd here); br = the same files compressed with brotli quality 11',
      'requests count the document and every resource it loaded, API calls included; FCP/LCP in ms from navigation start',
    ],
  };
}
