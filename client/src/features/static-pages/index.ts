export { StaticPageBySlug, StaticPageById } from './static-page';
