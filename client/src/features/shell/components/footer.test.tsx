import { endpoints } from '@imagestudio/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import { FakeApi, okPayload, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

const GERMAN = (
  JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '../../../../../migrations/seeds/strings/shell.json'), 'utf8'),
  ) as { de: Record<string, string> }
).de;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('languageId', '2');
  document.cookie = 'cookie_consent=true; path=/';
});

describe('footer in German', () => {
  it('names the country of the address and the VAT label in German', async () => {
    const api = withCatalog(new FakeApi()).route(endpoints.catalog.localizations, (req) =>
      okPayload(req.params.lang_id === 2 ? GERMAN : {}),
    );
    renderApp('/', api);
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(footer.textContent).toContain('10117 Berlin, Deutschland'));
    expect(footer.textContent).toContain('USt-IdNr. DE123456789');
    expect(footer.textContent).not.toMatch(/Germany|VAT ID/);
  });
});
