import type { BaseTier } from '@imagestudio/contracts';
import { SETTING_KEYS } from '@imagestudio/contracts';
import fs from 'node:fs';
import {
  catalogAdminService as catalogAdmin,
  catalogRepository as catalogRepo,
  pricingRepository as pricingRepo,
  getSettings,
  updateSetting,
} from '../catalog';
import { type AdminCommand, type AdminDeps, UsageError, str } from './admin-command-kit';

/** Warns (without refusing) when a paid pack now costs more than its tokens as a custom amount. */
async function printPackWarnings(deps: AdminDeps): Promise<void> {
  for (const warning of await catalogAdmin.dearerPackWarnings(deps)) deps.print(`warning: ${warning}`);
}
const packId = (text: string | undefined): number => {
  if (!text || !/^\d+$/.test(text)) throw new UsageError(`pack id must be a number, got "${text ?? ''}"`);
  return Number(text);
};

/** A setting value from the command line: JSON when it parses (numbers, arrays, objects, true), else text. */
function parseSettingValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** "0.1:0.10 100:0.09 1000:0.07" -> tiers; each ends 0.1 before the next starts, the last is open ended. */
function parseTiers(specs: string[]): BaseTier[] {
  const starts = specs.map((spec) => {
    const match = /^(\d+(?:\.\d)?):(\d+(?:\.\d+)?)$/.exec(spec);
    if (!match) throw new UsageError(`tier "${spec}" must look like MIN:PRICE, e.g. 100:0.09`);
    return { min: Number(match[1]), price: match[2] as string };
  });
  return catalogAdmin.tiersFromStarts(starts);
}

const packOptions = {
  title: { type: 'string' },
  description: { type: 'string' },
  price: { type: 'string' },
  credits: { type: 'string' },
} as const;

/** The catalog commands: settings, packs, price tiers, currencies and static pages. */
export const CATALOG_COMMANDS: Record<string, AdminCommand> = {
  'settings show': {
    usage: 'settings show',
    positionals: [0, 0],
    changes: false,
    run: async (deps) => {
      const settings = await getSettings(deps);
      for (const key of SETTING_KEYS) deps.print(`${key} = ${JSON.stringify(settings[key])}`);
    },
  },
  'settings set': {
    usage: 'settings set <key> <value>      (value as JSON, or plain text)',
    positionals: [2, 2],
    changes: true,
    run: async (deps, { positionals: [key, raw] }) => {
      const value = parseSettingValue(raw as string);
      const settings = await updateSetting(deps, key as string, value);
      deps.print(`${key} = ${JSON.stringify(settings[key as keyof typeof settings])}`);
      return { key, value };
    },
  },
  'packs list': {
    usage: 'packs list',
    positionals: [0, 0],
    changes: false,
    run: async (deps) => {
      for (const p of await pricingRepo.listPacks(deps.db)) {
        deps.print(
          `#${p.id} ${p.title}: ${(p.price_cents / 100).toFixed(2)} EUR, ${p.credits_tenths / 10} tokens, position ${p.position}${p.hidden ? ' (hidden)' : ''}`,
        );
      }
    },
  },
  'packs add': {
    usage: 'packs add --title <text> --price <EUR> --credits <tokens> [--description <text>]',
    options: packOptions,
    positionals: [0, 0],
    changes: true,
    run: async (deps, { options }) => {
      const [title, price, credits] = [str(options.title), str(options.price), str(options.credits)];
      if (title === undefined || price === undefined || credits === undefined)
        throw new UsageError('--title, --price and --credits are required');
      const pack = await catalogAdmin.addPack(deps, { title, price, credits, description: str(options.description) });
      deps.print(`added pack #${pack.id} ${pack.title}`);
      await printPackWarnings(deps);
      return { pack };
    },
  },
  'packs edit': {
    usage: 'packs edit <id> [--title <text>] [--price <EUR>] [--credits <tokens>] [--description <text>]',
    options: packOptions,
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [id], options }) => {
      const pack = await catalogAdmin.editPack(deps, packId(id), {
        title: str(options.title),
        price: str(options.price),
        credits: str(options.credits),
        description: str(options.description),
      });
      deps.print(`updated pack #${pack.id} ${pack.title}`);
      await printPackWarnings(deps);
      return { pack };
    },
  },
  'packs hide': {
    usage: 'packs hide <id>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [id] }) => {
      const pack = await catalogAdmin.editPack(deps, packId(id), { hidden: true });
      deps.print(`hid pack #${pack.id} ${pack.title}`);
      return { packId: pack.id };
    },
  },
  'packs unhide': {
    usage: 'packs unhide <id>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [id] }) => {
      const pack = await catalogAdmin.editPack(deps, packId(id), { hidden: false });
      deps.print(`showing pack #${pack.id} ${pack.title} again`);
      return { packId: pack.id };
    },
  },
  'packs order': {
    usage: 'packs order <id> [<id> ...]   (these first, in this order)',
    positionals: [1, 100],
    changes: true,
    run: async (deps, { positionals }) => {
      const ids = positionals.map(packId);
      const packs = await catalogAdmin.orderPacks(deps, ids);
      deps.print(`order: ${packs.map((p) => `#${p.id}`).join(' ')}`);
      return { order: packs.map((p) => p.id) };
    },
  },
  'tiers show': {
    usage: 'tiers show',
    positionals: [0, 0],
    changes: false,
    run: async (deps) => {
      for (const t of await pricingRepo.listTiers(deps.db)) {
        deps.print(
          `${t.min_tenths / 10} - ${t.max_tenths === null ? '...' : t.max_tenths / 10} tokens: ${t.price_eur} EUR per token`,
        );
      }
    },
  },
  'tiers set': {
    usage: 'tiers set <min>:<EUR per token> ...   e.g. tiers set 0.1:0.10 100:0.09 500:0.08 1000:0.07',
    positionals: [1, 50],
    changes: true,
    run: async (deps, { positionals }) => {
      const tiers = parseTiers(positionals);
      await catalogAdmin.setTiers(deps, tiers);
      deps.print(`set ${tiers.length} price tiers`);
      await printPackWarnings(deps);
      return { tiers };
    },
  },
  'currency list': {
    usage: 'currency list',
    positionals: [0, 0],
    changes: false,
    run: async (deps) => {
      for (const c of await catalogRepo.listCurrencies(deps.db)) {
        deps.print(`${c.code} ${c.symbol} ${c.value}${c.is_default ? ' (default)' : ''}${c.hidden ? ' (hidden)' : ''}`);
      }
    },
  },
  'currency set': {
    usage: 'currency set <CODE> <units per 1 EUR> [--symbol <symbol>]',
    options: { symbol: { type: 'string' } },
    positionals: [2, 2],
    changes: true,
    run: async (deps, { positionals: [code, rate], options }) => {
      await catalogAdmin.setCurrency(deps, code as string, rate as string, str(options.symbol));
      deps.print(`${(code as string).toUpperCase()} = ${rate} per EUR`);
      return { code, rate, symbol: str(options.symbol) };
    },
  },
  'currency default': {
    usage: 'currency default <CODE>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [code] }) => {
      await catalogAdmin.setDefaultCurrency(deps, code as string);
      deps.print(`default currency: ${(code as string).toUpperCase()}`);
      return { code };
    },
  },
  'currency hide': {
    usage: 'currency hide <CODE>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [code] }) => {
      await catalogAdmin.setCurrencyHidden(deps, code as string, true);
      deps.print(`hid ${(code as string).toUpperCase()}`);
      return { code };
    },
  },
  'currency unhide': {
    usage: 'currency unhide <CODE>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [code] }) => {
      await catalogAdmin.setCurrencyHidden(deps, code as string, false);
      deps.print(`showing ${(code as string).toUpperCase()} again`);
      return { code };
    },
  },
  'page list': {
    usage: 'page list',
    positionals: [0, 0],
    changes: false,
    run: async (deps) => {
      for (const p of await catalogRepo.listStaticPages(deps.db)) {
        deps.print(
          `#${p.id} /${p.slug ?? ''} ${p.title}${p.is_terms ? ' [terms]' : ''}${p.is_privacy ? ' [privacy]' : ''} (${p.content.length} chars)`,
        );
      }
    },
  },
  'page set': {
    usage: 'page set <slug> --file <page.html> [--title <text>] [--terms] [--privacy]',
    options: {
      file: { type: 'string' },
      title: { type: 'string' },
      terms: { type: 'boolean' },
      privacy: { type: 'boolean' },
    },
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [slug], options }) => {
      const file = str(options.file);
      if (!file) throw new UsageError('--file is required');
      if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const id = await catalogAdmin.savePage(deps, {
        slug: slug as string,
        title: str(options.title),
        html: fs.readFileSync(file, 'utf8'),
        isTerms: options.terms === true ? true : undefined,
        isPrivacy: options.privacy === true ? true : undefined,
      });
      deps.print(`saved page #${id} /${slug}`);
      return { id, slug, file, title: str(options.title) };
    },
  },
};
