import { endpoints, type JobName } from '@imagestudio/contracts';
import { Blob as NodeBlob } from 'node:buffer';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BatchItemView, BatchView, JobView } from '@imagestudio/contracts';
import { FakeApi, withCatalog } from '../../test/fake-api';
import { batchAcceptedFixture, jobFixture, profileFixture } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { zipImageNames } from './zip-images';
import { toolStatusFixture } from '../../test/tool-status';

// The browser's image checks read pixels jsdom cannot decode: every chosen file is a 100 x 80 PNG here.
jest.mock('./upload-checks', () => ({
  ...jest.requireActual('./upload-checks'),
  inspectFile: async (file: Blob) => ({ bytes: file.size, format: 'png', width: 100, height: 80 }),
}));

/** An EventSource the test drives: it records the streams opened and lets the test send their events. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  send(type: string, data: unknown) {
    act(() => this.listeners.get(type)?.forEach((l) => l({ data: JSON.stringify(data) } as MessageEvent<string>)));
  }
}

const ok = <T,>(payload: T, status = 200) => ({ status, data: { status: 'OK' as const, payload } });

function item(id: string, fileName: string, over: Partial<BatchItemView> = {}): BatchItemView {
  return {
    id,
    file_name: fileName,
    status: 'queued',
    progress: 0,
    stage: null,
    queue_position: null,
    cost: 1,
    refunded: false,
    error: null,
    input_url: null,
    input_preview_url: null,
    results: [],
    retry_of: null,
    cutout_confidence: null,
    created_at: '2026-11-24T10:00:00Z',
    finished_at: null,
    ...over,
  };
}

function batchView(items: BatchItemView[], over: Partial<BatchView> = {}): BatchView {
  const counts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const i of items) counts[i.status] += 1;
  return {
    id: 'b1',
    tool: 'remove-background',
    status: 'running',
    params: { output_format: 'png' },
    cost: items.length,
    refunded: 0,
    total: items.length,
    counts,
    skipped: [],
    created_at: '2026-11-24T10:00:00Z',
    finished_at: null,
    items,
    zip_url: '/api/batches/b1/zip',
    ...over,
  };
}

function signedIn(balance = 10) {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, ok(profileFixture({ balance })))
    .route(endpoints.tools.status, ok(toolStatusFixture({ off: ['generate'] })))
    .route(endpoints.tools.quote, (req) =>
      ok({ tool: req.params.tool as JobName, count: 1, factor: null, model: null, unit_price: 1, cost: 1 }),
    );
}

const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, { type: 'image/png' });

beforeEach(() => {
  FakeEventSource.opened = [];
  (globalThis as { EventSource?: unknown }).EventSource = FakeEventSource;
  URL.createObjectURL = jest.fn(() => 'blob:thumb');
  URL.revokeObjectURL = jest.fn();
});

afterEach(() => {
  delete (globalThis as { EventSource?: unknown }).EventSource;
});

/** Clicks a button once it can be used: the run button is labelled as soon as files are chosen, enabled once checked. */
async function clickWhenEnabled(name: string): Promise<void> {
  const button = (await screen.findByRole('button', { name })) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
}

describe('batch flow on a tool page', () => {
  it('prices several images before running, sends them as one batch and shows each item live', async () => {
    const first = item('j1', 'shoe-01.png');
    const second = item('j2', 'shoe-02.png');
    const api = signedIn()
      .route(
        endpoints.batches.create,
        ok(
          batchAcceptedFixture({
            items: [first, second].map(({ id, file_name, status }) => ({ id, file_name, status })),
          }),
          202,
        ),
      )
      .route(endpoints.batches.get, ok(batchView([first, second], { status: 'queued' })), { id: 'b1' });
    const { router } = renderApp('/services/remove-background', api);

    fireEvent.change(await screen.findByLabelText('Image'), {
      target: { files: [png('shoe-01.png'), png('shoe-02.png')] },
    });
    // The price follows the quote, which may arrive after the images are listed.
    await waitFor(() => expect(screen.getByTestId('batch-price').textContent).toBe('2 images x 1 token = 2 tokens'));
    expect((await screen.findAllByTestId('batch-choice-item')).map((li) => li.textContent)).toEqual([
      'shoe-01.png',
      'shoe-02.png',
    ]);
    await clickWhenEnabled('Process 2 images - 2 tokens');

    await waitFor(() => expect(api.last(endpoints.batches.create)).toBeDefined());
    const sent = api.last(endpoints.batches.create)!;
    const form = sent.data as FormData;
    expect(form.get('tool')).toBe('remove-background');
    expect((form.getAll('images') as File[]).map((f) => f.name)).toEqual(['shoe-01.png', 'shoe-02.png']);
    expect(form.get('output_format')).toBe('png');
    expect(sent.headers['idempotency-key']).toBeDefined();

    // The batch's own stream feeds the grid; the URL names the batch.
    await screen.findByTestId('batch-view');
    await waitFor(() => expect(router.state.location.search).toBe('?batch=b1'));
    const stream = FakeEventSource.opened.find((s) => s.url === '/batches/b1/events')!;
    expect(stream).toBeDefined();
    stream.send('batch', batchView([{ ...first, status: 'running', progress: 40, stage: 'processing' }, second]));
    expect(await screen.findByText('0 of 2 done')).toBeTruthy();
    stream.send(
      'end',
      batchView(
        [
          {
            ...first,
            status: 'succeeded',
            progress: 100,
            results: [{ url: 'https://s3/r1.png', width: 100, height: 80, format: 'png', bytes: 1 }],
          },
          {
            ...second,
            status: 'succeeded',
            progress: 100,
            results: [{ url: 'https://s3/r2.png', width: 100, height: 80, format: 'png', bytes: 1 }],
          },
        ],
        { status: 'succeeded' },
      ),
    );
    expect(await screen.findByText('2 of 2 done')).toBeTruthy();
    expect(stream.closed).toBe(true);
    const zip = screen.getByTestId('batch-zip');
    expect(zip.getAttribute('href')).toBe('/batches/b1/zip');
    expect(zip.textContent).toBe('Download all (ZIP)');
    const cards = screen.getAllByTestId('batch-item');
    expect(cards.map((c) => c.getAttribute('data-status'))).toEqual(['succeeded', 'succeeded']);
    expect(within(cards[0]!).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe(
      'shoe-01-no-background.png',
    );
    expect(screen.queryByTestId('batch-cancel')).toBeNull();
  });

  it('retries a failed item after asking in the page: a new charge for that item only', async () => {
    const good = item('j1', 'a.png', {
      status: 'succeeded',
      progress: 100,
      results: [{ url: 'https://s3/r1.png', width: 1, height: 1, format: 'png', bytes: 1 }],
    });
    const bad = item('j2', 'b.png', {
      status: 'failed',
      error: 'The image could not be processed. Your tokens were refunded.',
      refunded: true,
    });
    const api = signedIn()
      .route(endpoints.batches.get, ok(batchView([good, bad], { status: 'partial', refunded: 1 })), { id: 'b1' })
      .route(endpoints.batches.retryItem, ok(item('j3', 'b.png', { retry_of: 'j2' }), 202), { id: 'b1', itemId: 'j2' });
    renderApp('/services/remove-background?batch=b1', api);

    const failed = (await screen.findAllByTestId('batch-item'))[1]!;
    expect(failed.textContent).toContain('The image could not be processed.');
    expect(screen.getByText('1 token refunded for images that did not finish.')).toBeTruthy();
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry b.png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run this image again?' });
    expect(dialog.textContent).toContain('b.png runs again as a new job, charged 1 token.');
    // Not now: nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(api.last(endpoints.batches.retryItem, { id: 'b1', itemId: 'j2' })).toBeUndefined();
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry b.png' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Run this image again?' })).getByRole('button', {
        name: 'Retry - 1 token',
      }),
    );
    await waitFor(() => expect(api.last(endpoints.batches.retryItem, { id: 'b1', itemId: 'j2' })).toBeDefined());
    // The new item takes the failed one's place, and the batch is followed again until it ends.
    await waitFor(() =>
      expect(screen.getAllByTestId('batch-item').map((c) => c.getAttribute('data-status'))).toEqual([
        'succeeded',
        'queued',
      ]),
    );
    expect(FakeEventSource.opened.some((s) => s.url === '/batches/b1/events' && !s.closed)).toBe(true);
  });

  it('opens a finished item from its thumbnail: the before/after slider and its download; names break at word boundaries', async () => {
    const done = item('j1', 'summer_shoot-final.v2.png', {
      status: 'succeeded',
      progress: 100,
      input_url: 'https://s3/in1.png',
      results: [{ url: 'https://s3/r1.png', width: 40, height: 30, format: 'png', bytes: 1 }],
    });
    const open = item('j2', 'b.png', { status: 'running', progress: 10 });
    renderApp(
      '/services/remove-background?batch=b1',
      signedIn().route(endpoints.batches.get, ok(batchView([done, open])), { id: 'b1' }),
    );
    const [first, second] = await screen.findAllByTestId('batch-item');
    // The name may break after "_", "-" and ".", not between letters.
    const name = first!.querySelector('.batch-item__name')!;
    expect(name.textContent).toBe('summer_shoot-final.v2.png');
    expect(name.querySelectorAll('wbr')).toHaveLength(4);
    // Only a finished item opens; its viewer has the slider over input and result, and the download.
    expect(within(second!).queryByRole('button', { name: 'Open b.png' })).toBeNull();
    fireEvent.click(within(first!).getByRole('button', { name: 'Open summer_shoot-final.v2.png' }));
    const dialog = await screen.findByRole('dialog', { name: 'summer_shoot-final.v2.png' });
    const slider = within(dialog).getByRole('slider', {
      name: 'summer_shoot-final.v2.png: original and result comparison',
    });
    expect(slider).toBeTruthy();
    const images = [...dialog.querySelectorAll('img')].map((i) => i.getAttribute('src'));
    expect(images).toEqual(expect.arrayContaining(['https://s3/in1.png', 'https://s3/r1.png']));
    const download = within(dialog).getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe('https://s3/r1.png');
    expect(download.getAttribute('download')).toMatch(/^summer_shoot-final\.v2.*\.png$/);
  });

  it('cancels every open item with one button', async () => {
    const api = signedIn()
      .route(
        endpoints.batches.get,
        ok(batchView([item('j1', 'a.png', { status: 'running', progress: 10 }), item('j2', 'b.png')])),
        { id: 'b1' },
      )
      .route(
        endpoints.batches.cancel,
        ok(
          batchView(
            [
              item('j1', 'a.png', { status: 'cancelled', refunded: true }),
              item('j2', 'b.png', { status: 'cancelled', refunded: true }),
            ],
            { status: 'cancelled', refunded: 2 },
          ),
        ),
        { id: 'b1' },
      );
    renderApp('/services/remove-background?batch=b1', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel all' }));
    await waitFor(() => expect(screen.getByTestId('batch-view').getAttribute('data-status')).toBe('cancelled'));
    expect(screen.getByText('2 tokens refunded for images that did not finish.')).toBeTruthy();
    expect(screen.queryByTestId('batch-zip')).toBeNull();
  });

  it('names each bad file the server refused, and charges nothing', async () => {
    const api = signedIn().route(endpoints.batches.create, {
      status: 422,
      data: {
        status: 'ERROR',
        code: 'validation_failed',
        message: 'One file cannot be processed.',
        errors: { 'b.png': ['Not a JPEG, PNG or WebP image.'] },
      },
    });
    renderApp('/services/upscale', api);
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('a.png'), png('b.png')] } });
    await clickWhenEnabled('Process 2 images - 2 tokens');
    const bad = await screen.findByTestId('batch-bad-files');
    // Said once (in the run panel), each refused file named with its reason.
    expect(screen.getAllByText('One file cannot be processed.')).toHaveLength(1);
    expect(bad.textContent).toContain('b.png: Not a JPEG, PNG or WebP image.');
    const form = api.last(endpoints.batches.create)!.data as FormData;
    expect(form.get('tool')).toBe('upscale');
    expect(form.get('factor')).toBe('2');
    expect(form.get('model')).toBe('photo');
  });

  it('lists each bad file with why and a remove button, prices and runs the good ones, and says why it cannot run', async () => {
    const api = signedIn()
      .route(endpoints.batches.create, ok(batchAcceptedFixture(), 202))
      .route(endpoints.batches.get, ok(batchView([item('j1', 'a.png'), item('j2', 'b.png')], { status: 'queued' })), {
        id: 'b1',
      });
    renderApp('/services/remove-background', api);
    const empty = new File([], 'empty.png', { type: 'image/png' });
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('a.png'), empty, png('b.png')] } });
    // The empty file is left out of the price and the run, and says so.
    await waitFor(() => expect(screen.getByTestId('batch-price').textContent).toBe('2 images x 1 token = 2 tokens'));
    expect(screen.getByTestId('batch-left-out').textContent).toContain('1 of the chosen files cannot be processed');
    const bad = screen.getAllByTestId('batch-choice-item')[1]!;
    expect(bad.querySelector('.batch-item__error')!.textContent!.length).toBeGreaterThan(5);
    expect(within(bad).getByRole('button', { name: 'Remove empty.png' })).toBeTruthy();
    await clickWhenEnabled('Process 2 images - 2 tokens');
    await waitFor(() => expect(api.last(endpoints.batches.create)).toBeDefined());
    const form = api.last(endpoints.batches.create)!.data as FormData;
    expect((form.getAll('images') as File[]).map((f) => f.name)).toEqual(['a.png', 'b.png']);
  });

  it('with only bad files the run button says why it is off; removing them empties the choice', async () => {
    renderApp('/services/remove-background', signedIn());
    const files = ['x.png', 'y.png'].map((name) => new File([], name, { type: 'image/png' }));
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files } });
    await screen.findByText('None of the chosen files can be processed. Remove them or choose other images.');
    const run = screen.getByTestId('run') as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove x.png' }));
    await waitFor(() => expect(screen.getAllByTestId('batch-choice-item')).toHaveLength(1));
    expect(screen.getAllByTestId('batch-choice-item')[0]!.textContent).toContain('y.png');
  });

  it('more images than a batch takes are refused in the browser', async () => {
    renderApp('/services/remove-background', signedIn());
    const files = Array.from({ length: 51 }, (_, i) => png(`p${i}.png`));
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files } });
    expect((await screen.findByTestId('upload-error')).textContent).toBe('51 images chosen: a batch takes at most 50.');
    expect((screen.getByRole('button', { name: 'Process 51 images - 51 tokens' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('a batch opened from history replaces a single result on screen, and the URL keeps naming the batch', async () => {
    const single = jobFixture({
      id: 'j9',
      results: [{ url: 'https://s3/out.png', width: 10, height: 10, format: 'png', bytes: 1 }],
    });
    const api = signedIn()
      .route(endpoints.jobs.get, ok(single), { id: 'j9' })
      .route(
        endpoints.batches.get,
        ok(
          batchView(
            [
              item('j1', 'a.png', {
                status: 'succeeded',
                results: [{ url: 'https://s3/r1.png', width: 1, height: 1, format: 'png', bytes: 1 }],
              }),
            ],
            { status: 'succeeded' },
          ),
        ),
        { id: 'b1' },
      );
    const { router } = renderApp('/services/remove-background?job=j9', api);
    await screen.findByTestId('result');
    await act(() => router.navigate('/services/remove-background?batch=b1'));
    await screen.findByTestId('batch-view');
    expect(screen.queryByTestId('result')).toBeNull();
    // Give the URL effects their turns: neither the job nor the batch takes the URL back and forth.
    await new Promise((r) => setTimeout(r, 200));
    expect(router.state.location.search).toBe('?batch=b1');
  });

  it('counts a cancelled or failed item as such, never as done, with charged and refunded amounts that add up', async () => {
    const items = [
      item('j1', 'a.png', { status: 'succeeded' }),
      item('j2', 'b.png', { status: 'failed', refunded: true }),
      item('j3', 'c.png', { status: 'cancelled', refunded: true }),
      item('j4', 'd.png', { status: 'cancelled', refunded: true }),
    ];
    // One retried item: five charges of 1 token for four items, three of them refunded.
    const view = batchView(items, { status: 'partial', cost: 5, refunded: 3 });
    renderApp('/services/remove-background?batch=b1', signedIn().route(endpoints.batches.get, ok(view), { id: 'b1' }));
    expect((await screen.findByTestId('batch-done')).textContent).toBe('1 of 4 done · 1 failed · 2 cancelled');
    expect(screen.getByTestId('batch-cost').textContent).toBe('Charged: 5 tokens, refunded: 3 tokens');
  });

  it('lists the ZIP entries the server left out, with why, and says they cost nothing', async () => {
    const view = batchView([item('j1', 'ok.png', { status: 'succeeded' })], {
      status: 'succeeded',
      skipped: [
        { file_name: 'notes.txt', reasons: ['Not a JPEG, PNG or WebP image.'] },
        { file_name: 'fake.png', reasons: ['Only JPEG, PNG and WebP images are accepted.'] },
      ],
    });
    renderApp('/services/remove-background?batch=b1', signedIn().route(endpoints.batches.get, ok(view), { id: 'b1' }));
    const skipped = await screen.findByTestId('batch-skipped');
    expect(skipped.textContent).toContain('Left out of the ZIP, not charged (2):');
    expect(skipped.textContent).toContain('notes.txt: Not a JPEG, PNG or WebP image.');
    expect(skipped.textContent).toContain('fake.png: Only JPEG, PNG and WebP images are accepted.');
  });

  it('a job opened by URL shows the options it ran with, not the defaults', async () => {
    const job = jobFixture({
      id: 'u7',
      tool: 'upscale',
      params: { factor: 4, model: 'illustration', output_format: 'webp' },
      cost: 2,
      results: [{ url: 'https://s3/out.webp', width: 40, height: 40, format: 'webp', bytes: 1 }],
    });
    const api = signedIn()
      .route(
        endpoints.tools.status,
        ok(toolStatusFixture({ off: ['generate'], models: { upscale: ['photo', 'illustration'] } })),
      )
      .route(endpoints.jobs.get, ok(job), { id: 'u7' });
    renderApp('/services/upscale?job=u7', api);
    await waitFor(() => expect((screen.getByLabelText('Output format') as HTMLSelectElement).value).toBe('webp'));
    expect((screen.getByLabelText('Factor') as HTMLSelectElement).value).toBe('4');
    const checked = screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked);
    expect(checked.map((r) => (r as HTMLInputElement).value)).toEqual(['illustration']);
  });

  it('one image stays a single run', async () => {
    renderApp('/services/remove-background', signedIn());
    fireEvent.change(await screen.findByLabelText('Image'), { target: { files: [png('one.png')] } });
    await screen.findByRole('button', { name: 'Remove background - 1 token' });
    expect(screen.queryByTestId('batch-choice')).toBeNull();
  });
});

describe('history', () => {
  const job = (id: string, batch: string | null, status: JobView['status']): JobView =>
    jobFixture({
      id,
      status,
      refunded: status === 'failed',
      input_name: `${id}.png`,
      input_url: null,
      batch_id: batch,
    });

  it('groups a batch under one row that opens it, its images shown on demand', async () => {
    const api = signedIn()
      .route(
        endpoints.jobs.list,
        ok({
          items: [job('s1', null, 'succeeded'), job('a1', 'b1', 'succeeded'), job('a2', 'b1', 'failed')],
          page: 1,
          per_page: 20,
          total: 3,
          last_page: 1,
        }),
      )
      .route(
        endpoints.batches.list,
        ok({
          items: [
            {
              id: 'b1',
              tool: 'remove-background',
              status: 'partial',
              params: {},
              cost: 3,
              refunded: 1,
              total: 3,
              counts: { queued: 0, running: 0, succeeded: 2, failed: 1, cancelled: 0 },
              skipped: [],
              created_at: '2026-11-24T10:00:00Z',
              finished_at: null,
            },
          ],
          page: 1,
          per_page: 20,
          total: 1,
          last_page: 1,
        }),
      );
    renderApp('/account/request-history', api);
    const group = await screen.findByTestId('history-batch');
    await within(group).findByText('Batch of 3 images');
    expect(within(group).getByText('Partly done')).toBeTruthy();
    expect(within(group).getByRole('link', { name: 'Open batch' }).getAttribute('href')).toBe(
      '/services/remove-background?batch=b1',
    );
    // The single job is its own row; the batch's jobs stay folded until asked for.
    expect(screen.getAllByTestId('history-row')).toHaveLength(1);
    const toggle = within(group).getByRole('button', { name: 'Show the images' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(within(group).getAllByTestId('history-row')).toHaveLength(2);
  });
});

describe('ZIP directory', () => {
  /** A ZIP with stored (uncompressed) entries, enough for the directory reader. */
  function zipOf(names: string[]): NodeBlob {
    const encoder = new TextEncoder();
    const locals: Uint8Array[] = [];
    const centrals: Uint8Array[] = [];
    let offset = 0;
    for (const name of names) {
      const bytes = encoder.encode(name);
      const local = new DataView(new ArrayBuffer(30 + bytes.length));
      local.setUint32(0, 0x04034b50, true);
      local.setUint16(26, bytes.length, true);
      new Uint8Array(local.buffer).set(bytes, 30);
      const central = new DataView(new ArrayBuffer(46 + bytes.length));
      central.setUint32(0, 0x02014b50, true);
      central.setUint16(28, bytes.length, true);
      central.setUint32(42, offset, true);
      new Uint8Array(central.buffer).set(bytes, 46);
      locals.push(new Uint8Array(local.buffer));
      centrals.push(new Uint8Array(central.buffer));
      offset += local.byteLength;
    }
    const size = centrals.reduce((s, c) => s + c.length, 0);
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, names.length, true);
    end.setUint16(10, names.length, true);
    end.setUint32(12, size, true);
    end.setUint32(16, offset, true);
    return new NodeBlob([...locals, ...centrals, new Uint8Array(end.buffer)]);
  }

  it('lists the images a ZIP holds from its directory, leaving out folders, hidden and macOS files', async () => {
    const names = await zipImageNames(
      zipOf([
        'a.png',
        'shoes/',
        'shoes/b.JPG',
        'shoes/c.webp',
        '__MACOSX/shoes/._b.JPG',
        '.hidden.png',
        'notes.txt',
      ]) as unknown as Blob,
    );
    expect(names).toEqual(['a.png', 'shoes/b.JPG', 'shoes/c.webp']);
  });

  it('answers null for a file that is not a ZIP', async () => {
    expect(await zipImageNames(new NodeBlob([new Uint8Array(100)]) as unknown as Blob)).toBeNull();
  });
});
