import { JOB_NAMES, defaultSettings } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { getSettings, updateSetting } from './settings.service';
import { toToolSettings } from '../tool-definitions/tools.settings';

describe('settings', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('serves every setting with its default', async () => {
    const res = await t.agent().get('/api/settings').expect(200);
    expect(res.body.status).toBe('OK');
    const s = res.body.payload;
    expect(Object.keys(s).sort()).toEqual(Object.keys(defaultSettings()).sort());
    expect(s).toMatchObject({
      image_generation_price: 1,
      background_removal_price: 1,
      upscale_price: 1,
      points_conversion_rate: 1,
      vat_percent: 0,
      welcome_bonus_tokens: 0,
      image_generation_sizes: ['1024x1024', '1536x1024', '1024x1536'],
      upscale_factors: [2, 4],
      payment_methods: [{ id: 1, title: 'Credit/Debit card', code: 'card' }],
      is_reg_enabled: 1,
      require_email_verification: true,
      internal_currency: { name: 'Tokens', image: expect.any(String) },
    });
    for (const key of [
      'requisites',
      'support_email',
      'copyright',
      'company_name',
      'company_reg_number',
      'company_address',
    ]) {
      expect(s[key]).toEqual(expect.stringMatching(/\S/));
    }
  });

  it('gives job prices as exact tenths of a token', async () => {
    const s = await getSettings(t.ctx);
    // Every tool's price setting defaults to 1 token.
    expect(toToolSettings(s).priceTenths).toEqual(Object.fromEntries(JOB_NAMES.map((tool) => [tool, 10])));
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('refuses a value that does not fit the setting, and an unknown key', async () => {
    await expect(updateSetting(t.ctx, 'vat_percent', 12.345)).rejects.toMatchObject({ status: 422 });
    await expect(updateSetting(t.ctx, 'upscale_factors', [])).rejects.toMatchObject({ status: 422 });
    await expect(updateSetting(t.ctx, 'no_such_setting', 1)).rejects.toMatchObject({
      status: 422,
      errors: { key: ['Unknown setting "no_such_setting"'] },
    });
  });
});
