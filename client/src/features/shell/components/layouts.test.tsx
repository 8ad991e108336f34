import { endpoints } from '@imagestudio/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { FakeApi, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * jsdom lays nothing out and the tests stub CSS imports, so the real stylesheets are added to the document
 * here and the rules that keep the first screen still are read back from the rendered elements.
 */
function addStyles(...files: string[]): void {
  for (const file of files) {
    const style = document.createElement('style');
    style.textContent = fs.readFileSync(path.join(__dirname, file), 'utf8');
    document.head.append(style);
  }
}

beforeAll(() => addStyles('layouts.css', 'header.css'));
afterAll(() => document.head.querySelectorAll('style').forEach((s) => s.remove()));

describe('main layout while a signed-in page waits for the session', () => {
  it('keeps the main area a screen tall below the header, with the footer after it', async () => {
    // The session check never answers: the page stays at its first, spinner-only state.
    const api = withCatalog(new FakeApi()).route(endpoints.account.isAuth, () => new Promise(() => undefined));
    renderApp('/services/upscale', api);
    await screen.findByRole('status', { name: 'Loading...' });
    const main = document.getElementById('main')!;
    expect(main.className).toBe('layout__main');
    expect(getComputedStyle(main).minHeight).toBe('calc(100vh - var(--header-height))');
    expect(main.nextElementSibling?.tagName).toBe('FOOTER');
  });

  it('packs the header actions right in a box that starts after the menu, whoever the visitor is', async () => {
    renderApp('/', withCatalog(new FakeApi()));
    await screen.findByRole('link', { name: 'Sign in' });
    const actions = screen.getByRole('link', { name: 'Sign in' }).parentElement!;
    expect(actions.className).toBe('header__actions');
    const style = getComputedStyle(actions);
    expect(style.justifyContent).toBe('flex-end');
    expect(style.marginLeft).not.toBe('auto');
    expect(style.flexGrow).toBe('1');
  });
});
