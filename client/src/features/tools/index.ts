import { addEnglish } from '../../lib/i18n';
// The stores only signed-in or paying visitors use come with these pages, not with the home page.
import '../../stores/signed-in-stores';
import { clientTools } from '../../lib/i18n/messages/client-tools';
import { clientToolsEditor } from '../../lib/i18n/messages/client-tools-editor';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientTools);
addEnglish(clientToolsEditor);

/**
 * Each tool's page, under the name its entry in TOOLS (config/tools.ts) gives as `page`, in a chunk of its own:
 * a landing page or one tool's page does not download the other tools' pages.
 */
export const toolPages = {
  GeneratePage: () => import('./generate/generate-page').then((m) => m.GeneratePage),
  RemoveBackgroundPage: () => import('./remove-background/remove-background-page').then((m) => m.RemoveBackgroundPage),
  UpscalePage: () => import('./upscale/upscale-page').then((m) => m.UpscalePage),
  AiBackgroundPage: () => import('./ai-background/ai-background-page').then((m) => m.AiBackgroundPage),
  ErasePage: () => import('./erase/erase-page').then((m) => m.ErasePage),
  ExpandPage: () => import('./expand/expand-page').then((m) => m.ExpandPage),
};
export { ToolLandingPage } from './landing-page';
