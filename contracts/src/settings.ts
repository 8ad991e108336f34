/**
 * Site settings with their defaults. The server stores one row per key
 * and validates every value with this schema; the client types GET /api/settings with `Settings`.
 */
import { z } from 'zod';
import { DEFAULT_COPYRIGHT } from './constants';
import { isDecimal } from './decimal';
import { TOOLS } from './tools';
import { UPSCALE_MODELS } from './tools/upscale';

/** A token amount exact to 0.1 (job prices, welcome bonus). */
const tokenAmount = z
  .number()
  .min(0)
  .max(1_000_000)
  .refine((v) => isDecimal(v, 1), 'Must be a multiple of 0.1');
/** A money amount in the base currency, exact to the cent. */
const moneyAmount = z
  .number()
  .min(0)
  .max(1_000_000)
  .refine((v) => isDecimal(v, 2), 'At most 2 decimals');
const imageSize = z.string().regex(/^\d{2,4}x\d{2,4}$/, 'Size must look like 1024x1024');

export const paymentMethodSchema = z.object({
  id: z.number().int().positive(),
  title: z.string().min(1),
  code: z.string().min(1),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

type ToolPriceSetting = (typeof TOOLS)[number]['priceSetting'];
/** The price setting of every tool (per image for generation). */
const toolPrices = Object.fromEntries(TOOLS.map((t) => [t.priceSetting, tokenAmount.default(1)])) as Record<
  ToolPriceSetting,
  ReturnType<typeof tokenAmount.default>
>;

/** Every setting, with its default; unknown keys are refused. */
export const settingsSchema = z
  .object({
    requisites: z.string().default('IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX · VAT ID DE123456789'),
    support_email: z.string().email().default('support@imagestudio.example'),
    copyright: z.string().default(DEFAULT_COPYRIGHT),
    company_name: z.string().default('Image Studio GmbH'),
    company_reg_number: z.string().default('HRB 123456 B'),
    company_address: z.string().default('Friedrichstraße 123, 10117 Berlin, Germany'),
    /** 1 = registration open (0/1 rather than a boolean: the client reads it so). */
    is_reg_enabled: z.union([z.literal(0), z.literal(1)]).default(1),
    /** Minimum top-up in the base currency (EUR); the client multiplies it by the currency's value. */
    min_top_up: moneyAmount.default(1),
    /** VAT added on top of prices, in percent with at most 2 decimals. */
    vat_percent: z
      .number()
      .min(0)
      .max(100)
      .refine((v) => isDecimal(v, 2), 'At most 2 decimals')
      .default(0),
    payment_methods: z
      .array(paymentMethodSchema)
      .min(1)
      .default([{ id: 1, title: 'Credit/Debit card', code: 'card' }]),
    welcome_bonus_tokens: tokenAmount.default(0),
    points_conversion_rate: z
      .number()
      .positive()
      .refine((v) => isDecimal(v, 6), 'At most 6 decimals')
      .default(1),
    // Each tool's price (its definition names the setting), 1 token unless an operator sets another.
    ...toolPrices,
    /** Price of an upscale per model where it differs from upscale_price (e.g. {"photo-max": 2}); default none. */
    upscale_model_prices: z.partialRecord(z.enum(UPSCALE_MODELS), tokenAmount).default({}),
    /**
     * Prices of the remove.bg-compatible API (`POST /v1.0/removebg`) per output size, in tokens exact to 0.1:
     * `preview` (up to 0.25 MP) must cost less than `full`; `medium` (1.5 MP) and `hd` (4 MP) lie between.
     */
    removebg_api_prices: z
      .object({ preview: tokenAmount, medium: tokenAmount, hd: tokenAmount, full: tokenAmount })
      .refine((p) => p.preview < p.full, 'The preview price must be lower than the full price')
      .refine((p) => p.preview <= p.medium && p.medium <= p.hd && p.hd <= p.full, 'Prices must rise with the size')
      .default({ preview: 0.3, medium: 0.6, hd: 0.8, full: 1 }),
    image_generation_sizes: z.array(imageSize).min(1).default(['1024x1024', '1536x1024', '1024x1536']),
    upscale_factors: z.array(z.number().int().min(2).max(8)).min(1).default([2, 4]),
    /** Google Tag id; empty = no tag. */
    google_tag: z.string().default(''),
    internal_currency: z
      .object({ name: z.string().min(1), image: z.string() })
      .default({ name: 'Tokens', image: '/images/token.svg' }),
    /** Spending tokens and checkout need a verified email when on. */
    require_email_verification: z.boolean().default(true),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

/** The defaults of every setting. */
export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}
