import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { hasStatus } from '../../../lib/api/api-error';
import type { ApiClient } from '../../../lib/api/api-client';
import type { Translate } from '../../../lib/i18n';
import type { SocialLinkView, StaticPageView } from '@imagestudio/contracts';

/** Result of loading one page: the page, "missing" (404: show Not Found), or an error text. */
export type PageResult = { page: StaticPageView } | { missing: true } | { error: string };

/** The static page list (footer links, slug routes, terms/privacy/cookie lookups) and single pages. */
export class PagesStore {
  pages: StaticPageView[] = [];
  /** The social links the footer shows (GET /api/social-links); none when the call fails. */
  socialLinks: SocialLinkView[] = [];
  loaded = false;
  error: string | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
  ) {
    makeAutoObservable<PagesStore, 'api' | 't'>(this, { api: false, t: false });
  }

  get termsPage(): StaticPageView | undefined {
    return this.pages.find((p) => Boolean(Number(p.is_terms)));
  }

  get privacyPage(): StaticPageView | undefined {
    return this.pages.find((p) => Boolean(Number(p.is_privacy)));
  }

  /** The cookie page is the one whose title contains the word "cookie". */
  get cookiePage(): StaticPageView | undefined {
    return this.pages.find((p) => /\bcookies?\b/i.test(p.title));
  }

  bySlug(slug: string): StaticPageView | undefined {
    return this.pages.find((p) => p.slug === slug);
  }

  /** Client path of a page: its slug when it has one, else /static-page/{id}. */
  pathOf(page: StaticPageView): string {
    return page.slug ? `/${page.slug}` : `/static-page/${page.id}`;
  }

  async load(): Promise<void> {
    void this.loadSocialLinks();
    try {
      const reply = await this.api.call(endpoints.catalog.staticPages);
      if (reply.status !== 'OK' || !Array.isArray(reply.payload)) throw new Error('bad reply');
      runInAction(() => {
        this.pages = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => {
        this.error = this.t('shell.errors.fetchPages');
      });
    } finally {
      runInAction(() => {
        this.loaded = true;
      });
    }
  }

  private async loadSocialLinks(): Promise<void> {
    try {
      const reply = await this.api.call(endpoints.catalog.socialLinks, {}, { skipErrorHandling: true });
      const links = Array.isArray(reply.payload)
        ? reply.payload.filter((l) => typeof l.url === 'string' && /^https?:\/\//i.test(l.url))
        : [];
      runInAction(() => (this.socialLinks = links));
    } catch {
      // the footer simply shows no social links
    }
  }

  /** Loads one page with its content, by id or by slug. */
  async fetchPage(ref: { id: string } | { slug: string }): Promise<PageResult> {
    const quiet = { skipErrorHandling: true };
    try {
      const reply = await ('id' in ref
        ? this.api.call(endpoints.catalog.staticPage, { params: { id: ref.id } }, quiet)
        : this.api.call(endpoints.catalog.staticPageBySlug, { params: { slug: ref.slug } }, quiet));
      if (reply.status !== 'OK' || !reply.payload) return { error: this.t('shell.errors.fetchPage') };
      return { page: reply.payload };
    } catch (err) {
      if (hasStatus(err, 404)) return { missing: true };
      return { error: this.t('shell.errors.fetchPage') };
    }
  }
}
