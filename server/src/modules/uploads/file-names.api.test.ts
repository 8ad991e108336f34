import type { BatchAccepted, JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { binaryParser, unzip, waitForBatch } from '../batches/batches.test-support';
import { solidImage } from './test-images';

// "Frühstück" with its umlauts as one code point each, as browsers on Windows and Linux send it.
const NAME = 'Fr\u00fchst\u00fcck.png';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t);
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

/** The Content-Disposition a presigned result URL asks S3 to send. */
const dispositionOf = (url: string) => new URL(url).searchParams.get('response-content-disposition');

describe('non-ASCII file names', () => {
  it('are read as UTF-8 on a single upload, and the result downloads under them (RFC 6266 filename*)', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    // superagent writes the name's UTF-8 bytes into the part's header, as browsers do.
    const res = await agent.post('/api/tools/remove-background').attach('image', await solidImage('png'), NAME);
    expect(res.status).toBe(202);
    expect((res.body.payload as JobView).input_name).toBe(NAME);
    const done = await waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded']);
    expect(done.input_name).toBe(NAME);
    expect(dispositionOf(done.results[0]!.url)).toBe(
      `attachment; filename="Fruhstuck-no-background.png"; filename*=UTF-8''Fr%C3%BChst%C3%BCck-no-background.png`,
    );
    // S3 answers with that header, so the browser saves "Frühstück-no-background.png".
    const file = await fetch(done.results[0]!.url);
    expect(file.headers.get('content-disposition')).toContain(`filename*=UTF-8''Fr%C3%BChst%C3%BCck-no-background.png`);
  });

  it('are read as UTF-8 on a batch upload, and keep their letters inside the results ZIP', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('images', await solidImage('png'), NAME)
      .expect(202);
    const accepted = res.body.payload as BatchAccepted;
    expect(accepted.items.map((i) => i.file_name)).toEqual([NAME]);
    await waitForBatch(agent, accepted.id, (b) => b.status === 'succeeded');
    const zip = await agent.get(`/api/batches/${accepted.id}/zip`).buffer(true).parse(binaryParser).expect(200);
    expect([...(await unzip(zip.body as Buffer)).keys()]).toEqual(['Frühstück-no-background.png']);
  });
});
