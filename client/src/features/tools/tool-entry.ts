import type { LucideIcon } from 'lucide-react';
import type { JobName } from '@imagestudio/contracts';
import type { ExampleName } from '../../components/example-pairs';
import { paths } from '../../config/paths';

/** The landing texts every tool has; a tool without an example pair adds `exampleLabel` and `examplePrompt`. */
export const LANDING_TEXTS = ['title', 'text', 'point1', 'point2', 'point3'] as const;

/**
 * The keys every tool's English texts must hold, named after the tool so that any list of tools can find them:
 * its name in lists (`tool`), in the Services menu (`menu`), in the operator console (`admin`), the sentence
 * saying it is switched off (`off`), its name inside the "... work." sentence (`works`, written as it stands
 * mid-sentence) and its landing page.
 */
export type ToolTextKey<N extends string> =
  | `client-tools.${'tool' | 'menu' | 'admin' | 'off' | 'works'}.${N}`
  | `client-tools.landing.${N}.${(typeof LANDING_TEXTS)[number]}`;

/** What the client knows of one tool: where its pages are, how it is shown, and its English texts. */
export interface ToolEntry<N extends JobName = JobName> {
  /** The signed-in page (under `paths.services.root`, wrapped in `<ToolGate>` by the routes). */
  path: string;
  /**
   * The page component: an export of `features/tools/index.ts`, loaded with the tools' chunk when the page is
   * first shown (routes.tsx checks that the export exists).
   */
  page: string;
  /** The public landing page (a guest's way in; leads to `path` once signed in). */
  landingPath: string;
  /** Shown next to the tool's name where it is offered as a link or a button. */
  icon: LucideIcon;
  /** How a running job counts its work ({done} of {total}): diffusion steps, or the tiles of an image. */
  progressText: 'client-tools.stage.steps' | 'client-tools.stage.tiles';
  landing: {
    /** A before/after pair made by our own models; null shows the landing texts' example prompt instead. */
    example: ExampleName | null;
    /** What the price is per: "Price: 1 token per <unit>". */
    unit: 'client-tools.landing.unitImage' | 'client-tools.landing.unitPhoto';
  };
  /**
   * Every English text of the tool (its names, landing page and page), in the "client-tools" namespace; the
   * German ones are in migrations/seeds/strings/client-tools.json, which i18n-seed.test.ts checks against these.
   */
  text: Record<ToolTextKey<N>, string> & Record<`client-tools.${string}`, string>;
}

/** A tool's signed-in page path, under the Services root. */
export const servicePage = (slug: string) => `${paths.services.root}/${slug}`;

/** Checks one tool's entry against its name while keeping its literal text keys (they become message keys). */
export function toolEntry<N extends JobName, const E extends ToolEntry<N>>(_name: N, entry: E): E {
  return entry;
}
