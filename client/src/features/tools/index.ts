import { addEnglish } from '../../lib/i18n';
// The stores only signed-in or paying visitors use come with these pages, not with the home page.
import '../../stores/signed-in-stores';
import { clientTools } from '../../lib/i18n/messages/client-tools';
import { clientToolsEditor } from '../../lib/i18n/messages/client-tools-editor';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientTools);
addEnglish(clientToolsEditor);

// Each tool's page, under the name its entry in TOOLS (config/tools.ts) gives as `page`.
export { GeneratePage } from './generate/generate-page';
export { RemoveBackgroundPage } from './remove-background/remove-background-page';
export { UpscalePage } from './upscale/upscale-page';
export { AiBackgroundPage } from './ai-background/ai-background-page';
export { ErasePage } from './erase/erase-page';
export { ExpandPage } from './expand/expand-page';
export { ToolLandingPage } from './landing-page';
