import { aiBackgroundTool } from './ai-background';
import { eraseTool } from './erase';
import { expandTool } from './expand';
import { generateTool } from './generate';
import { removeBackgroundTool } from './remove-background';
import type { ToolContract } from './tool-contract';
import { upscaleTool } from './upscale';

/**
 * Every tool, in the order lists show them. A tool is one file in this folder plus its entry here; every list of
 * tools below is derived from these definitions. This module and the tool files stay free of zod at run time
 * (their schemas are built in tool-schemas.ts), so the browser bundle can use the lists without it.
 */
export const TOOLS = [
  generateTool,
  removeBackgroundTool,
  upscaleTool,
  aiBackgroundTool,
  eraseTool,
  expandTool,
] as const;

type Tool = (typeof TOOLS)[number];
/** One BullMQ job name per tool. */
export type JobName = Tool['name'];
/** The definition of one tool, by name. */
export type ToolContractOf<N extends JobName> = Extract<Tool, { name: N }>;
/** The tools a batch can run. */
export type BatchTool = Extract<Tool, { batchable: true }>['name'];

/** A tuple of the tools' names, typed as the tuple of their literal names. */
type NamesOf<T extends readonly { name: string }[]> = {
  readonly [I in keyof T]: T[I] extends { name: infer N } ? N : never;
};

/** The tools' names, in TOOLS order (a tuple type, so zod enums and Record<JobName, ...> can use it). */
export const JOB_NAMES = TOOLS.map((t) => t.name) as unknown as NamesOf<typeof TOOLS>;

/** The site setting that holds each tool's price in tokens (per image for generation). */
export const TOOL_PRICE_SETTINGS = Object.fromEntries(TOOLS.map((t) => [t.name, t.priceSetting])) as {
  readonly [N in JobName]: ToolContractOf<N>['priceSetting'];
};

/** The tool names users read in server messages. */
export const TOOL_LABELS = Object.fromEntries(TOOLS.map((t) => [t.name, t.label])) as Readonly<Record<JobName, string>>;

/** The contract of a tool, by name. */
export function toolContract(name: JobName): ToolContract {
  return TOOLS.find((t) => t.name === name)!;
}

/** The tools a batch can run (generation takes no input image). */
export const BATCH_TOOLS = TOOLS.filter((t) => t.batchable).map((t) => t.name) as readonly BatchTool[];

export {
  aiBackgroundTool,
  aiBackgroundPrompt,
  AI_BACKGROUND_MESSAGES,
  AI_BACKGROUND_PRESETS,
  AI_BACKGROUND_PRESET_IDS,
  type AiBackgroundPreset,
} from './ai-background';
export { eraseTool, erasePrompt, maskStrength, ERASE_DEFAULT_PROMPT, ERASE_MESSAGES, MASK_PAINTED } from './erase';
export { expandTool, expandPrompt, EXPAND_DEFAULT_PROMPT } from './expand';
export {
  expandCanvas,
  expandRefusal,
  EXPAND_ASPECTS,
  EXPAND_ASPECT_IDS,
  EXPAND_FACTORS,
  EXPAND_FACTOR_RANGE,
  EXPAND_MAX_SIDE,
  EXPAND_MESSAGES,
  EXPAND_POSITIONS,
  type ExpandAspect,
  type ExpandCanvas,
  type ExpandChoice,
  type ExpandPosition,
} from './expand-canvas';
export { generateTool, GENERATE_MESSAGES } from './generate';
export { removeBackgroundTool } from './remove-background';
export { upscaleTool, UPSCALE_MODELS, DEFAULT_UPSCALE_MODEL, type UpscaleModel } from './upscale';
export type { ToolContract } from './tool-contract';
