import type { JobName } from '@imagestudio/contracts';
import { aiBackgroundDefinition } from './ai-background.definition';
import { eraseDefinition } from './erase.definition';
import { expandDefinition } from './expand.definition';
import { generateDefinition } from './generate.definition';
import { removeBackgroundDefinition } from './remove-background.definition';
import type { AnyToolDefinition } from './tool-definition';
import type { ToolSettings } from './tools.settings';
import { upscaleDefinition } from './upscale.definition';

/** One definition per tool of the contracts; TypeScript names a tool that has none. */
const DEFINITIONS = {
  generate: generateDefinition,
  'remove-background': removeBackgroundDefinition,
  upscale: upscaleDefinition,
  'ai-background': aiBackgroundDefinition,
  erase: eraseDefinition,
  expand: expandDefinition,
} satisfies { [N in JobName]: AnyToolDefinition & { contract: { name: N } } };

/** The server side of a tool (parsing, price, payload, work units). */
export function toolDefinition(name: JobName): AnyToolDefinition {
  return DEFINITIONS[name];
}

/** The least one job of `name` can cost with these settings (see ToolDefinition.cheapestTenths). */
export function cheapestTenths(name: JobName, settings: ToolSettings): number {
  const definition = toolDefinition(name);
  return definition.cheapestTenths?.(settings) ?? settings.priceTenths[name];
}

export type { AnyToolDefinition, QuoteQuery, SizedJob } from './tool-definition';
export { storedParams as productPhotoParams } from './remove-background.definition';
export { readToolSettings, type ToolSettings } from './tools.settings';
export type { ToolDefinitionsDeps } from './tool-definitions.deps';
