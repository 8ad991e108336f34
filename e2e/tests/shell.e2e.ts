import { test } from '../lib/fixtures';
import { check } from '../lib/harness';

/** The home heading: the spec's while generation runs, the image tools' while it is off (availability.e2e.ts). */
const HOME = /^(Turn ideas into images in seconds|Clean cut-outs and sharper photos in seconds)$/;
const HOME_DE = /^(Verwandeln Sie Ideen in Sekunden in Bilder|Saubere Freisteller und schärfere Fotos in Sekunden)$/;

const WIDTHS = [360, 768, 1280];

/** Home renders; home, login and register at the three widths are saved and never scroll sideways. */
test('home page renders; home, login and register screenshots at 360/768/1280 without sideways scrolling', async ({
  ctx,
}) => {
  for (const width of WIDTHS) {
    const page = await ctx.newPage({ width, height: 900 });
    for (const [name, path, heading] of [
      ['home', '/', HOME],
      ['login', '/login', 'Sign in'],
      ['register', '/register', 'Create an account'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      // Strings run in the page (this file is type-checked without the DOM library).
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
      check(overflow <= 0, `${path} at ${width}px scrolls sideways by ${overflow}px`);
      await ctx.screenshot(page, `${name}-${width}`);
    }
  }
});

test('an unknown path shows Not Found with a way home', async ({ ctx }) => {
  const page = await ctx.newPage();
  await page.goto('/no/such/page');
  await page.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
  await page.getByText('Sorry, the page you are looking for does not exist.').waitFor();
  await page.getByRole('link', { name: 'Go Back Home' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/not-a-page-slug');
  await page.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
});

test('cookie banner: Decline stores "false" and asks again, Accept stores "true" for 365 days', async ({ ctx }) => {
  const page = await ctx.newPage();
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await banner.waitFor();
  check(
    (await banner.getByRole('link', { name: 'Cookie policy' }).count()) === 1,
    'banner has no link to the cookie page',
  );
  await banner.getByRole('button', { name: 'Decline' }).click();
  await banner.waitFor({ state: 'detached' });
  let cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_consent');
  check(cookie?.value === 'false', `cookie_consent should be "false", is ${cookie?.value}`);
  await page.reload();
  await banner.waitFor();
  await banner.getByRole('button', { name: 'Accept' }).click();
  await banner.waitFor({ state: 'detached' });
  cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_consent');
  check(cookie?.value === 'true', `cookie_consent should be "true", is ${cookie?.value}`);
  const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
  check(days > 364 && days <= 365.01, `cookie_consent lives ${days.toFixed(2)} days, not 365`);
  await page.reload();
  await page.getByRole('heading', { name: HOME }).waitFor();
  check((await banner.count()) === 0, 'banner shown again after Accept');
});

test('switching to German changes the texts and survives a reload', async ({ ctx }) => {
  const page = await ctx.newPage();
  await page.goto('/');
  await page.getByRole('heading', { name: HOME }).waitFor();
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await page.getByRole('heading', { name: HOME_DE }).waitFor();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Startseite' }).waitFor();
  await ctx.screenshot(page, 'home-de-1280');
  await page.reload();
  await page.getByRole('heading', { name: HOME_DE }).waitFor();
  await page.goto('/nope/nope');
  await page.getByRole('heading', { name: 'Hoppla! Seite nicht gefunden' }).waitFor();
});

test('keyboard: services menu opens and closes with Escape; mobile menu closes on Escape and at 768 px', async ({
  ctx,
}) => {
  const page = await ctx.newPage({ width: 1280 });
  await page.goto('/');
  const services = page.getByRole('button', { name: 'Services' });
  await services.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Remove background' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Remove background' }).waitFor({ state: 'hidden' });
  check(
    await services.evaluate((el) => el.matches(':focus-visible')),
    'focus did not return visibly to the Services button',
  );
  const outline = await services.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).outlineStyle);
  check(outline !== 'none', 'focused Services button shows no focus outline');
  // Hover opens the menu with a mouse; leaving closes it after the 200 ms delay.
  await services.hover();
  await page.getByRole('link', { name: 'Upscale image' }).waitFor();
  await page.mouse.move(5, 600);
  await page.getByRole('link', { name: 'Upscale image' }).waitFor({ state: 'hidden' });
  // A click after the hover opened it keeps it open (it used to toggle it shut under the pointer); a second
  // click closes it.
  await services.hover();
  await services.click();
  await page.waitForTimeout(300);
  check(await page.getByRole('link', { name: 'Upscale image' }).isVisible(), 'clicking Services closed the menu');
  await page.mouse.move(5, 600);
  await page.waitForTimeout(300);
  check(await page.getByRole('link', { name: 'Upscale image' }).isVisible(), 'a clicked-open menu closed on leave');
  await services.click();
  await page.getByRole('link', { name: 'Upscale image' }).waitFor({ state: 'hidden' });

  const phone = await ctx.newPage({ width: 360, height: 740 });
  await phone.goto('/');
  await phone.getByRole('button', { name: 'Open menu' }).click();
  const menu = phone.locator('#mobile-menu');
  await menu.getByRole('link', { name: 'Log in' }).waitFor();
  await ctx.screenshot(phone, 'mobile-menu-360');
  await phone.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await phone.getByRole('button', { name: 'Open menu' }).click();
  await menu.waitFor();
  await phone.setViewportSize({ width: 800, height: 740 });
  await menu.waitFor({ state: 'detached' });
});
