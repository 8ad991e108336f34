import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import {
  insertMissingPageTranslations,
  insertMissingPages,
  seedSocialLinks,
} from '../../server/src/modules/catalog/catalog.repository';
import { sanitizePageHtml } from '../../server/src/modules/catalog/page-html';

/** Static pages from pages/<slug>.html; a page that exists (maybe edited by an operator) is kept. */
const PAGES = [
  { slug: 'terms', title: 'Terms of Service', is_terms: true, is_privacy: false, position: 1 },
  { slug: 'privacy', title: 'Privacy Policy', is_terms: false, is_privacy: true, position: 2 },
  { slug: 'cookie-policy', title: 'Cookie Policy', is_terms: false, is_privacy: false, position: 3 },
  { slug: 'about', title: 'About Us', is_terms: false, is_privacy: false, position: 4 },
];

/**
 * The same pages in other languages, from pages/<language code>/<slug>.html: the language's title per slug. A
 * translation that exists (maybe edited by an operator) is kept.
 */
const TRANSLATED_TITLES: Record<string, Record<string, string>> = {
  de: {
    terms: 'Allgemeine Geschäftsbedingungen',
    privacy: 'Datenschutzerklärung',
    'cookie-policy': 'Cookie-Richtlinie',
    about: 'Über uns',
  },
};

const SOCIAL_LINKS = [
  { title: 'Instagram', url: 'https://www.instagram.com/imagestudio', icon: 'instagram', position: 1 },
  { title: 'X', url: 'https://x.com/imagestudio', icon: 'x', position: 2 },
  { title: 'YouTube', url: 'https://www.youtube.com/@imagestudio', icon: 'youtube', position: 3 },
  { title: 'LinkedIn', url: 'https://www.linkedin.com/company/imagestudio', icon: 'linkedin', position: 4 },
];

export async function seed(knex: Knex): Promise<void> {
  await insertMissingPages(
    knex,
    PAGES.map((p) => ({
      ...p,
      content: sanitizePageHtml(fs.readFileSync(path.join(__dirname, 'pages', `${p.slug}.html`), 'utf8')),
    })),
  );
  await insertMissingPageTranslations(
    knex,
    Object.entries(TRANSLATED_TITLES).flatMap(([code, titles]) =>
      Object.entries(titles).map(([slug, title]) => ({
        slug,
        language_code: code,
        title,
        content: sanitizePageHtml(fs.readFileSync(path.join(__dirname, 'pages', code, `${slug}.html`), 'utf8')),
      })),
    ),
  );
  await seedSocialLinks(knex, SOCIAL_LINKS);
}
