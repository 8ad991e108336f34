import sanitizeHtml from 'sanitize-html';

/**
 * Cleans static-page HTML when it is written (seed, operator CLI), so pages are served as stored:
 * headings, text formatting, lists, tables and links (http, https, mailto, and site paths) only; no
 * scripts, styles, event handlers or iframes. Links to other sites open with rel="noopener noreferrer".
 */
export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'h1', 'h2'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'], '*': ['id'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: /^https?:/i.test(attribs.href ?? '') ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
      }),
    },
  }).trim();
}
