import { Eraser, Maximize2, Sparkles, type LucideIcon } from 'lucide-react';
import type { JobName } from '@imagestudio/contracts';
import type { ExampleName } from '../components/example-pairs';
import type { MessageKey } from '../lib/i18n';
import { paths } from './paths';

/** The middle part of a tool's landing texts: `client-tools.landing.<texts>.title`, `.text`, `.point1` to `.point3`. */
type LandingTexts = {
  [K in MessageKey]: K extends `client-tools.landing.${infer P}.title` ? P : never;
}[MessageKey];

/** What the client knows of one tool: where its pages are, what starts it, and how it is named and shown. */
interface ToolEntry {
  /** The signed-in page (under `paths.services.root`, wrapped in `<ToolGate>` by the routes). */
  path: string;
  /**
   * The page component: an export of `features/tools/index.ts`, loaded with the tools' chunk when the page is
   * first shown (routes.tsx checks that the export exists).
   */
  page: string;
  /** The public landing page (a guest's way in; leads to `path` once signed in). */
  landingPath: string;
  /** The tool's name in the Services menu and the "switched off" page. */
  label: MessageKey;
  /** Shown next to the label where a tool is offered as a link or a button. */
  icon: LucideIcon;
  /** How a running job counts its work ({done} of {total}): diffusion steps, or the tiles of an image. */
  progressText: 'client-tools.stage.steps' | 'client-tools.stage.tiles';
  landing: {
    texts: LandingTexts;
    /** A before/after pair made by our own models; null shows the landing texts' example prompt instead. */
    example: ExampleName | null;
    /** What the price is per: "Price: 1 token per <unit>". */
    unit: MessageKey;
  };
}

const servicePage = (slug: string) => `${paths.services.root}/${slug}`;

/**
 * Every tool the client offers, keyed by its job name (`JOB_NAMES` in contracts): the routes, the Services
 * menu, the tools' runs and the landing pages all read this table, so a new job name makes TypeScript ask for
 * exactly one entry here. Lists of tools keep the order of `JOB_NAMES`.
 */
export const TOOLS = {
  generate: {
    path: servicePage('generate-image'),
    page: 'GeneratePage',
    landingPath: '/generate-image',
    label: 'shell.services.generateImage',
    icon: Sparkles,
    progressText: 'client-tools.stage.steps',
    landing: { texts: 'generate', example: null, unit: 'client-tools.landing.unitImage' },
  },
  'remove-background': {
    path: servicePage('remove-background'),
    page: 'RemoveBackgroundPage',
    landingPath: '/remove-background',
    label: 'shell.services.removeBackground',
    icon: Eraser,
    progressText: 'client-tools.stage.tiles',
    landing: { texts: 'removeBg', example: 'chelsea', unit: 'client-tools.landing.unitPhoto' },
  },
  upscale: {
    path: servicePage('upscale'),
    page: 'UpscalePage',
    landingPath: '/upscale-image',
    label: 'shell.services.upscale',
    icon: Maximize2,
    progressText: 'client-tools.stage.tiles',
    landing: { texts: 'upscale', example: 'motorcycle', unit: 'client-tools.landing.unitPhoto' },
  },
} as const satisfies Record<JobName, ToolEntry>;

/** One value per name of `names` (all tools, or the batch tools), in their order. */
export function byTool<N extends JobName, T>(names: readonly N[], make: (tool: N) => T): Record<N, T> {
  return Object.fromEntries(names.map((tool) => [tool, make(tool)])) as Record<N, T>;
}
