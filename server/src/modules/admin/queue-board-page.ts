import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The board's page template inside its UI package (the package the board's own code loads its page from). */
function boardTemplate(): string {
  // Resolved from the board's API package, as that package does itself (the UI package has no entry point).
  const api = path.dirname(require.resolve('@bull-board/api'));
  const ui = path.dirname(require.resolve('@bull-board/ui/package.json', { paths: [api] }));
  return path.join(ui, 'dist', 'index.ejs');
}

/** The template without elements that load from another host (its web-font stylesheet). */
function withoutOutsideAssets(template: string): string {
  return template.replace(/<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi, '');
}

/**
 * A views folder for the board (ExpressAdapter.setViewsPath) holding its page without outside assets, so every
 * file the page loads comes from the API: the board's scripts, styles and icons are its package's own static
 * files, served under the board's path; only the font link pointed elsewhere (the page falls back to the
 * system's sans-serif). Written once per process to a temporary folder, from the installed package's template,
 * so an upgrade of the board brings its new asset names with it.
 */
export function localBoardViews(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-board-views-'));
  fs.writeFileSync(path.join(dir, 'index.ejs'), withoutOutsideAssets(fs.readFileSync(boardTemplate(), 'utf8')));
  return dir;
}
