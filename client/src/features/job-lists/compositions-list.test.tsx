import { fireEvent, screen, within } from '@testing-library/react';
import { endpoints, type CompositionView, type JobView } from '@imagestudio/contracts';
import { FakeApi, okPayload as ok, withCatalog } from '../../test/fake-api';
import { jobFixture, profileFixture } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { formatFileSize, setNumberLocale } from '../../lib/format';

function signedIn() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance: 10 })));
}

const page = (items: JobView[]) => ok({ items, page: 1, per_page: 20, total: items.length, last_page: 1 });

function picture(overrides: Partial<CompositionView>): CompositionView {
  return {
    url: 'https://s3/results/c1.jpg',
    width: 2000,
    height: 2000,
    format: 'jpeg',
    bytes: 412_000,
    thumbnail_url: 'https://s3/results/c1.jpg.thumb.webp',
    layout: { canvas: '2000x2000', output_format: 'jpeg', mask_only: false },
    edited_matte: false,
    subject_box: null,
    created_at: '2026-11-24T10:05:00Z',
    ...overrides,
  };
}

/** A background removal of shoe.png with two kept pictures: a new one with its preview, an older large one without. */
const composed = jobFixture({
  id: 'j1',
  input_name: 'shoe.png',
  results: [
    { url: 'https://s3/results/0.png', width: 640, height: 480, format: 'png', bytes: 90_000, thumbnail_url: null },
  ],
  compose_sources: null,
  compositions: [
    picture({}),
    picture({
      url: 'https://s3/results/c2.webp',
      width: 1080,
      height: 1350,
      format: 'webp',
      bytes: 2_480_000,
      thumbnail_url: null,
      layout: null,
    }),
  ],
});
const plain = jobFixture({ id: 'j2', tool: 'upscale', input_name: 'cat.png', compositions: undefined });

/** The two pictures' entries as a customer reads them: preview, words, and the download link. */
function expectPictures(list: HTMLElement) {
  expect(within(list).getByText('Finished pictures (2)')).toBeTruthy();
  const items = within(list).getAllByTestId('composition');
  expect(items).toHaveLength(2);
  const thumb = within(items[0]!).getByRole('img', { name: 'JPEG picture, 2000 × 2000 px' });
  expect(thumb.getAttribute('src')).toBe('https://s3/results/c1.jpg.thumb.webp');
  expect(within(items[0]!).getByText('JPEG · 2000 × 2000 px · 412 kB')).toBeTruthy();
  const first = within(items[0]!).getByRole('link', { name: 'Download the JPEG picture, 2000 × 2000 px' });
  expect([first.getAttribute('href'), first.getAttribute('download')]).toEqual([
    'https://s3/results/c1.jpg',
    'shoe-no-background-2000x2000.jpg',
  ]);
  // Too large to show in a 48 px slot without a preview: a placeholder, never the full-size file.
  expect(within(items[1]!).queryByRole('img', { name: 'WebP picture, 1080 × 1350 px' })?.tagName).toBe('SPAN');
  expect(within(items[1]!).getByText('WebP · 1080 × 1350 px · 2.5 MB')).toBeTruthy();
  const second = within(items[1]!).getByRole('link', { name: 'Download the WebP picture, 1080 × 1350 px' });
  expect(second.getAttribute('download')).toBe('shoe-no-background-1080x1350.webp');
}

describe('kept pictures in the lists', () => {
  it('My Projects shows each picture of a job in its card, with its own download', async () => {
    renderApp('/account/my-projects', signedIn().route(endpoints.jobs.projects, page([composed, plain])));
    const cards = await screen.findAllByTestId('project-card');
    expectPictures(within(cards[0]!).getByTestId('compositions'));
    // The job's own result keeps its download beside them.
    expect(within(cards[0]!).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      'https://s3/results/0.png',
    );
    expect(within(cards[1]!).queryByTestId('compositions')).toBeNull();
  });

  it('Request History shows them on a row under the job, and under a batch item once the batch is opened', async () => {
    const item = jobFixture({ ...composed, id: 'b1-1', batch_id: 'b1' });
    const api = signedIn()
      .route(endpoints.jobs.list, page([composed, plain, item]))
      .route(endpoints.batches.list, ok({ items: [], page: 1, per_page: 20, total: 0, last_page: 1 }));
    renderApp('/account/request-history', api);
    const rows = await screen.findAllByTestId('history-row');
    expect(rows).toHaveLength(2);
    // The pictures' row follows their job's row; the upscale has none.
    const next = rows[0]!.nextElementSibling as HTMLElement;
    expect(next.classList.contains('history-compositions')).toBe(true);
    expectPictures(within(next).getByTestId('compositions'));
    expect(rows[1]!.nextElementSibling).toBeNull();
    expect(screen.getAllByTestId('compositions')).toHaveLength(1);

    const group = screen.getByTestId('history-batch');
    fireEvent.click(within(group).getByRole('button', { name: 'Show the images' }));
    expectPictures(within(group).getByTestId('compositions'));
  });

  it('sizes read in the language of the page', () => {
    setNumberLocale('de');
    try {
      expect([formatFileSize(2_480_000), formatFileSize(412_000), formatFileSize(300)]).toEqual([
        '2,5 MB',
        '412 kB',
        '1 kB',
      ]);
    } finally {
      setNumberLocale('en');
    }
  });
});
