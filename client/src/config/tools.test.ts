import { JOB_NAMES, endpoints } from '@imagestudio/contracts';
import * as toolsFeature from '../features/tools';
import { clientTools } from '../lib/i18n/messages/client-tools';
import { LANDING_TEXTS } from '../features/tools/tool-entry';
import { paths, requiresAuth } from './paths';
import { byTool, TOOLS } from './tools';

const entries = JOB_NAMES.map((tool) => TOOLS[tool]);

describe('the tool registry', () => {
  it('gives every tool its own signed-in page under /services, public landing page and API route', () => {
    for (const { path, landingPath } of entries) {
      expect(path.startsWith(`${paths.services.root}/`)).toBe(true);
      expect(requiresAuth(path)).toBe(true);
      expect(landingPath).toMatch(/^\/[a-z-]+$/);
      expect(requiresAuth(landingPath)).toBe(false);
    }
    // The API route that starts one job comes from the route table.
    const apiPaths = JOB_NAMES.map((tool) => endpoints.tools.run[tool].path);
    for (const apiPath of apiPaths) expect(apiPath).toMatch(/^\/tools\/[a-z-]+$/);
    const all = entries.flatMap((e) => [e.path, e.landingPath]);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(apiPaths).size).toBe(entries.length);
  });

  it('names a page that the tools feature loads, each in its own chunk', async () => {
    const loaders: Record<string, () => Promise<unknown>> = toolsFeature.toolPages;
    for (const { page } of entries) {
      expect(Object.keys(loaders)).toContain(page);
      expect(await loaders[page]!()).toBeTruthy();
    }
    expect(Object.keys(loaders)).toHaveLength(entries.length);
  });

  it('has the English texts of each name and landing page in its own entry', () => {
    for (const tool of JOB_NAMES) {
      const { landing, text } = TOOLS[tool];
      const texts: Record<string, string> = { ...clientTools, ...text };
      const keys = [...LANDING_TEXTS] as string[];
      // Without an example pair the landing page shows an example prompt.
      if (landing.example === null) keys.push('exampleLabel', 'examplePrompt');
      const names = (['tool', 'menu', 'admin', 'off', 'works'] as const).map((k) => `client-tools.${k}.${tool}`);
      const missing = [landing.unit, ...names, ...keys.map((k) => `client-tools.landing.${tool}.${k}`)].filter(
        (key) => !texts[key],
      );
      expect(missing).toEqual([]);
    }
  });

  it("keeps each tool's texts to itself: no two tools write the same key", () => {
    const keys = JOB_NAMES.flatMap((tool) => Object.keys(TOOLS[tool].text));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((key) => key in clientTools)).toEqual([]);
  });

  it('byTool makes one value per name, in the order of the names', () => {
    const made = byTool(JOB_NAMES, (tool) => `${tool}!`);
    expect(Object.keys(made)).toEqual([...JOB_NAMES]);
    expect(made.upscale).toBe('upscale!');
  });
});
