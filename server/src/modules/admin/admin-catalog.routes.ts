import type { AppContext } from '../../context';
import {
  catalogAdminService as catalogAdmin,
  catalogRepository as catalogRepo,
  getSettings,
  updateSetting,
} from '../catalog';
import { audit } from './admin-audit';
import { catalogView } from './admin-catalog-view';
import { type AdminHandlers, REAUTH } from './admin-handlers';

/**
 * Catalog editing in the console (docs/operations.md#catalog), relative to /api/admin and behind its guard:
 * the same changes as `npm run admin` through the same validating functions, each behind a fresh password
 * confirmation and written to the audit log with before and after. Every change answers the whole catalog
 * afterwards, warnings included, so the page shows what the CLI would print. Packs and currencies have their
 * own files (packHandlers, currencyHandlers); adminRouter mounts them between the settings and the pages.
 */
export function catalogHandlers(ctx: AppContext) {
  return {
    catalog: () => catalogView(ctx),

    catalogSetting: {
      handler: async ({ req, params: { key }, body: { value } }) => {
        const before = (await getSettings(ctx)) as Record<string, unknown>;
        const after = (await updateSetting(ctx, key, value)) as Record<string, unknown>;
        await audit(ctx, req, 'catalog.settings.set', `setting:${key}`, {
          before: { value: before[key] },
          after: { value: after[key] },
        });
        return catalogView(ctx);
      },
      before: REAUTH,
    },
  } satisfies AdminHandlers;
}

/** The console's static pages (terms, privacy and the others). */
export function pageHandlers(ctx: AppContext) {
  return {
    catalogPage: {
      handler: async ({ req, params: { slug }, body: input }) => {
        const before = (await catalogRepo.listStaticPages(ctx.db)).find((p) => p.slug === slug);
        const id = await catalogAdmin.savePage(ctx, {
          slug,
          title: input.title,
          html: input.html,
          isTerms: input.is_terms,
          isPrivacy: input.is_privacy,
        });
        const after = (await catalogRepo.listStaticPages(ctx.db)).find((p) => p.id === id);
        const summary = (p: catalogRepo.StaticPageRow | undefined) =>
          p ? { title: p.title, chars: p.content.length, is_terms: p.is_terms, is_privacy: p.is_privacy } : null;
        await audit(ctx, req, 'catalog.pages.set', `page:${slug}`, { before: summary(before), after: summary(after) });
        return catalogView(ctx);
      },
      before: REAUTH,
    },
  } satisfies AdminHandlers;
}
