import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { money } from '../jobs/jobs.test-support';
import { BATCH_FORM_MESSAGES } from '../batches/batch-multipart';
import { MULTIPART_LIMITS, MULTIPART_MESSAGES } from './multipart';
import { solidImage } from './test-images';

// No worker runs here: a form that passes the multipart checks reaches the availability check and gets
// 503 tool_unavailable, which is how the accepted cases show that the form itself was fine.
let t: TestContext;
let png: Buffer;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  png = await solidImage('png', 16, 16);
});

afterAll(async () => {
  await t.close();
});

async function expectNothingCharged(userId: string): Promise<void> {
  expect((await money(t, userId)).balance).toBe(50);
  expect(await t.ctx.db('image_jobs').where({ user_id: userId }).count('* as n').first()).toEqual({ n: '0' });
}

describe('multipart uploads take exactly one image and a bounded form', () => {
  it('refuses two images in `image` with 422 "Send one image per request." and charges nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    for (const path of ['/api/tools/remove-background', '/api/tools/upscale']) {
      const res = await agent
        .post(path)
        .field('factor', '2')
        .attach('image', png, 'a.png')
        .attach('image', png, 'b.png')
        .expect(422);
      expect(res.body).toEqual({
        status: 'ERROR',
        code: 'validation_failed',
        message: 'Send one image per request.',
        errors: { image: ['Send one image per request.'] },
      });
    }
    // Three files end the same way (busboy's file limit is the backstop for any number).
    const three = await agent
      .post('/api/tools/remove-background')
      .attach('image', png, 'a.png')
      .attach('image', png, 'b.png')
      .attach('image', png, 'c.png');
    expect(three.status).toBe(422);
    expect(three.body.message).toBe(MULTIPART_MESSAGES.oneImage);
    // And in the request's language.
    const de = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'de')
      .attach('image', png, 'a.png')
      .attach('image', png, 'b.png')
      .expect(422);
    expect(de.body.message).toBe('Senden Sie ein Bild pro Anfrage.');
    await expectNothingCharged(user.id);
  });

  it('refuses a file sent in another field, naming the field it must use', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const alone = await agent.post('/api/tools/remove-background').attach('photo', png, 'a.png').expect(422);
    expect(alone.body.errors).toEqual({ image: ['Send the image in the field "image", not "photo".'] });
    expect(alone.body.message).toBe('Send the image in the field "image", not "photo".');
    // Beside a proper image, the stray file is refused too rather than ignored.
    const beside = await agent
      .post('/api/tools/remove-background')
      .attach('image', png, 'a.png')
      .attach('images', png, 'b.png')
      .expect(422);
    expect(beside.body.errors).toEqual({ image: ['Send the image in the field "image", not "images".'] });
    const de = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'de')
      .attach('photo', png, 'a.png')
      .expect(422);
    expect(de.body.message).toBe('Senden Sie das Bild im Feld "image", nicht in "photo".');
    await expectNothingCharged(user.id);
  });

  it('refuses more fields than allowed with 422 instead of dropping the rest', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const withFields = (count: number) => {
      const req = agent.post('/api/tools/remove-background');
      for (let i = 0; i < count; i++) req.field(`extra_${i}`, 'x');
      return req.attach('image', png, 'a.png');
    };
    // At the limit the form is read whole (and reaches the tool check).
    const atLimit = await withFields(MULTIPART_LIMITS.fields);
    expect(atLimit.body.code).toBe('tool_unavailable');
    const over = await withFields(MULTIPART_LIMITS.fields + 1).expect(422);
    expect(over.body.errors).toEqual({ form: ['Too many form fields: at most 30.'] });
    // Far over the limit (more parts than busboy is allowed to read) ends the same way.
    const far = await withFields(200).expect(422);
    expect(far.body.message).toBe('Too many form fields: at most 30.');
    await expectNothingCharged(user.id);
  });

  it('refuses an oversized text field, a field sent twice and an oversized field name; never truncates', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    // A 17 KB value that busboy would cut at 16 KB: an ordinary URL then ends mid-way.
    const longUrl = `https://example.com/hook?${'a'.repeat(MULTIPART_LIMITS.fieldBytes)}`;
    const long = await agent
      .post('/api/tools/remove-background')
      .field('callback_url', longUrl)
      .attach('image', png, 'a.png')
      .expect(422);
    expect(long.body.errors).toEqual({ callback_url: ['This field is too long: at most 16 KB.'] });
    // Exactly at the limit the value arrives whole.
    const exact = await agent
      .post('/api/tools/remove-background')
      .field('note', 'x'.repeat(MULTIPART_LIMITS.fieldBytes))
      .attach('image', png, 'a.png');
    expect(exact.body).toMatchObject({ code: 'tool_unavailable' });

    const twice = await agent
      .post('/api/tools/upscale')
      .field('factor', '2')
      .field('factor', '4')
      .attach('image', png, 'a.png')
      .expect(422);
    expect(twice.body.errors).toEqual({ factor: ['This field was sent more than once.'] });

    const name = 'n'.repeat(MULTIPART_LIMITS.fieldNameBytes + 20);
    const longName = await agent
      .post('/api/tools/remove-background')
      .field(name, '1')
      .attach('image', png, 'a.png')
      .expect(422);
    expect(longName.body.message).toBe('A field name is too long: at most 100 bytes.');
    expect(Object.keys(longName.body.errors as object)[0]!.length).toBeLessThanOrEqual(MULTIPART_LIMITS.fieldNameBytes);
    await expectNothingCharged(user.id);
  });

  it('still accepts one image with the usual fields', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/remove-background')
      .field('output_format', 'webp')
      .field('lang_id', 'en')
      .field('currency', 'EUR')
      .attach('image', png, 'a.png')
      .expect(503);
    expect(res.body.code).toBe('tool_unavailable');
    await expectNothingCharged(user.id);
  });
});

describe('batch uploads are read by the same strict reader', () => {
  const batch = (agent: Awaited<ReturnType<typeof verifiedUser>>['agent']) =>
    agent.post('/api/batches').field('tool', 'remove-background');

  it('refuses a repeated tool or option instead of letting the last value win', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const tool = await agent
      .post('/api/batches')
      .field('tool', 'upscale')
      .field('tool', 'remove-background')
      .attach('images', png, 'a.png')
      .expect(422);
    expect(tool.body.errors).toEqual({ tool: [MULTIPART_MESSAGES.repeatedField] });
    const option = await batch(agent)
      .field('output_format', 'png')
      .field('output_format', 'webp')
      .attach('images', png, 'a.png')
      .expect(422);
    expect(option.body.errors).toEqual({ output_format: [MULTIPART_MESSAGES.repeatedField] });
    await expectNothingCharged(user.id);
  });

  it('refuses a file in a field it does not take, naming the fields it does', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await batch(agent).attach('images', png, 'a.png').attach('photo', png, 'b.png').expect(422);
    expect(res.body.errors).toEqual({ images: [BATCH_FORM_MESSAGES.wrongField('photo')] });
    expect(res.body.message).toBe('Send the images in the field "images" or one ZIP in "archive", not "photo".');
    const de = await batch(agent).field('lang_id', 'de').attach('photo', png, 'b.png').expect(422);
    expect(de.body.message).toBe(
      'Senden Sie die Bilder im Feld "images" oder eine ZIP-Datei in "archive", nicht in "photo".',
    );
    await expectNothingCharged(user.id);
  });

  it('refuses an oversized field name or value and too many fields, as the single route does', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const longName = await batch(agent).field('n'.repeat(5000), '1').attach('images', png, 'a.png').expect(422);
    expect(longName.body.message).toBe(MULTIPART_MESSAGES.fieldNameTooLong);
    expect(Object.keys(longName.body.errors as object)[0]!.length).toBe(MULTIPART_LIMITS.fieldNameBytes);
    const longValue = await batch(agent)
      .field('note', 'x'.repeat(MULTIPART_LIMITS.fieldBytes + 1))
      .attach('images', png, 'a.png')
      .expect(422);
    expect(longValue.body.errors).toEqual({ note: [MULTIPART_MESSAGES.fieldTooLong] });
    const req = batch(agent);
    for (let i = 0; i < MULTIPART_LIMITS.fields; i++) req.field(`extra_${i}`, 'x');
    const many = await req.attach('images', png, 'a.png').expect(422);
    expect(many.body.errors).toEqual({ form: [MULTIPART_MESSAGES.tooManyFields] });
    await expectNothingCharged(user.id);
  });

  it('answers 400, not 500, to a multipart body without a boundary', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    for (const path of ['/api/batches', '/api/tools/remove-background']) {
      const res = await agent.post(path).set('Content-Type', 'multipart/form-data').send('--x\r\n');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', message: MULTIPART_MESSAGES.unreadable });
    }
    await expectNothingCharged(user.id);
  });

  it('still reads a proper batch form whole (it reaches the availability check)', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await batch(agent)
      .field('output_format', 'webp')
      .attach('images', png, 'a.png')
      .attach('images', png, 'b.png');
    expect(res.body.code).toBe('tool_unavailable');
    await expectNothingCharged(user.id);
  });
});
