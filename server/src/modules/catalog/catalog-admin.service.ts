import {
  BASE_CURRENCY,
  convertTiers,
  isDecimal,
  isValidTokenAmount,
  subtotalMinorUnits,
  toMinorUnits,
  validateTiers,
  type BaseTier,
} from '@imagestudio/contracts';
import { notFound, validationError } from '../../lib/errors';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import * as catalogRepo from './catalog.repository';
import { sanitizePageHtml } from './page-html';
import * as repo from './pricing.repository';
import type { PackRow } from './pricing.repository';

/** Operator changes to packs, tiers, currencies and pages (the CLI's catalog commands). */

export interface PackInput {
  title?: string;
  description?: string;
  /** EUR, at most 2 decimals; 0 = free. */
  price?: string;
  /** Tokens, at most 1 decimal. */
  credits?: string;
}

function packChanges(input: PackInput): Partial<Omit<PackRow, 'id'>> {
  const changes: Partial<Omit<PackRow, 'id'>> = {};
  if (input.title !== undefined) {
    if (!input.title.trim()) throw validationError({ title: ['Title is required'] });
    changes.title = input.title.trim();
  }
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.price !== undefined) {
    if (!isDecimal(input.price, 2) || Number(input.price) < 0)
      throw validationError({ price: ['Price must be an amount in EUR with at most 2 decimals'] });
    changes.price_cents = toMinorUnits(input.price, 'EUR');
  }
  if (input.credits !== undefined) {
    if (!isDecimal(input.credits, 1) || Number(input.credits) <= 0)
      throw validationError({ credits: ['Credits must be a positive multiple of 0.1'] });
    changes.credits_tenths = Math.round(Number(input.credits) * 10);
  }
  return changes;
}

/**
 * Warnings for visible paid packs that cost more (in EUR, before VAT) than the same tokens bought as a
 * custom amount at the current tiers: customers would be better off ignoring the pack.
 */
export async function dearerPackWarnings(deps: CatalogDeps): Promise<string[]> {
  const rows = await repo.listTiers(deps.db);
  const tiers = convertTiers(
    rows.map((r) => ({
      min: r.min_tenths / 10,
      max: r.max_tenths === null ? null : r.max_tenths / 10,
      price: r.price_eur,
    })),
    '1',
    BASE_CURRENCY,
  );
  const warnings: string[] = [];
  for (const pack of await repo.listPacks(deps.db)) {
    // free packs are gifts; packs larger than a custom amount can be have nothing to compare with
    if (pack.hidden || pack.price_cents <= 0 || !isValidTokenAmount(pack.credits_tenths / 10)) continue;
    const custom = subtotalMinorUnits(pack.credits_tenths, tiers, BASE_CURRENCY);
    if (pack.price_cents > custom) {
      warnings.push(
        `pack #${pack.id} ${pack.title} costs ${(pack.price_cents / 100).toFixed(2)} EUR, more than the same ${pack.credits_tenths / 10} tokens as a custom amount (${(custom / 100).toFixed(2)} EUR)`,
      );
    }
  }
  return warnings;
}

/** Adds a pack at the end of the list. */
export async function addPack(
  deps: CatalogDeps,
  input: Required<Pick<PackInput, 'title' | 'price' | 'credits'>> & PackInput,
): Promise<PackRow> {
  const all = await repo.listPacks(deps.db);
  const changes = packChanges(input);
  const pack = await repo.insertPack(deps.db, {
    title: changes.title as string,
    description: changes.description ?? '',
    price_cents: changes.price_cents as number,
    credits_tenths: changes.credits_tenths as number,
    position: Math.max(0, ...all.map((p) => p.position)) + 1,
    hidden: false,
  });
  catalogCache(deps).invalidate();
  return pack;
}

/** Changes a pack's title, description, price, credits or visibility. */
export async function editPack(
  deps: CatalogDeps,
  id: number,
  input: PackInput & { hidden?: boolean },
): Promise<PackRow> {
  const changes = packChanges(input);
  if (input.hidden !== undefined) changes.hidden = input.hidden;
  if (Object.keys(changes).length === 0) throw validationError({ _: ['Nothing to change'] });
  const pack = await repo.updatePack(deps.db, id, changes);
  if (!pack) throw notFound(`No pack with id ${id}`);
  catalogCache(deps).invalidate();
  return pack;
}

/** Puts the listed packs first, in that order; the others keep their order after them. */
export async function orderPacks(deps: CatalogDeps, ids: number[]): Promise<PackRow[]> {
  const all = await repo.listPacks(deps.db);
  const unknown = ids.filter((id) => !all.some((p) => p.id === id));
  if (unknown.length > 0) throw notFound(`No pack with id ${unknown.join(', ')}`);
  const ordered = [...ids, ...all.map((p) => p.id).filter((id) => !ids.includes(id))];
  await deps.db.transaction(async (trx) => {
    for (const [index, id] of ordered.entries()) await repo.updatePack(trx, id, { position: index + 1 });
  });
  catalogCache(deps).invalidate();
  return repo.listPacks(deps.db);
}

/**
 * Tiers from where each starts: each ends 0.1 token before the next starts, the last is open ended (the CLI's
 * `tiers set 0.1:0.10 100:0.09` and the console's tier form both give starts).
 */
export function tiersFromStarts(starts: Array<{ min: number; price: string }>): BaseTier[] {
  return starts.map((s, i) => {
    const next = starts[i + 1];
    return { min: s.min, max: next ? (Math.round(next.min * 10) - 1) / 10 : null, price: s.price };
  });
}

/** Replaces the tier table after checking it (contiguous from 0.1, open ended, prices falling). */
export async function setTiers(deps: CatalogDeps, tiers: BaseTier[]): Promise<void> {
  const problems = validateTiers(tiers);
  if (problems.length > 0) throw validationError({ tiers: problems });
  await repo.replaceTiers(
    deps.db,
    tiers.map((t) => ({
      min_tenths: Math.round(t.min * 10),
      max_tenths: t.max === null ? null : Math.round(t.max * 10),
      price_eur: String(t.price),
    })),
  );
  catalogCache(deps).invalidate();
}

/** Adds a currency or changes its rate (units per 1 EUR) and symbol. */
export async function setCurrency(deps: CatalogDeps, code: string, rate: string, symbol?: string): Promise<void> {
  const upper = code.toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) throw validationError({ code: ['Currency code must be 3 letters'] });
  if (!isDecimal(rate, 8) || Number(rate) <= 0)
    throw validationError({ rate: ['Rate must be a positive decimal with at most 8 decimals'] });
  if (upper === 'EUR' && Number(rate) !== 1)
    throw validationError({ rate: ['EUR is the base currency: its rate is 1'] });
  await catalogRepo.upsertCurrency(deps.db, { code: upper, value: rate, symbol });
  catalogCache(deps).invalidate();
}

/** Makes a currency the default (and visible). */
export async function setDefaultCurrency(deps: CatalogDeps, code: string): Promise<void> {
  if (!(await catalogRepo.setDefaultCurrency(deps.db, code.toUpperCase()))) throw notFound(`No currency ${code}`);
  catalogCache(deps).invalidate();
}

/** Hides a currency from customers or shows it again (the default one cannot be hidden). */
export async function setCurrencyHidden(deps: CatalogDeps, code: string, hidden: boolean): Promise<void> {
  if ((await catalogRepo.setCurrencyHidden(deps.db, code.toUpperCase(), hidden)) === 0)
    throw notFound(`No currency ${code} that can be changed (the default cannot be hidden)`);
  catalogCache(deps).invalidate();
}

/** Creates or replaces a static page by slug; the HTML is sanitized before it is stored. */
export async function savePage(
  deps: CatalogDeps,
  input: { slug: string; title?: string; html: string; isTerms?: boolean; isPrivacy?: boolean },
): Promise<number> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(input.slug))
    throw validationError({ slug: ['Slug must be lower-case words joined by dashes'] });
  const existing = (await catalogRepo.listStaticPages(deps.db)).find((p) => p.slug === input.slug);
  const title = input.title?.trim() || existing?.title;
  if (!title) throw validationError({ title: ['Title is required for a new page'] });
  const content = sanitizePageHtml(input.html);
  if (!content) throw validationError({ html: ['The page has no content'] });
  const id = await catalogRepo.savePage(deps.db, {
    slug: input.slug,
    title,
    content,
    is_terms: input.isTerms ?? existing?.is_terms ?? false,
    is_privacy: input.isPrivacy ?? existing?.is_privacy ?? false,
    position: existing?.position ?? 100,
  });
  catalogCache(deps).invalidate();
  return id;
}
