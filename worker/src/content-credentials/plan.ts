import { createHash, randomUUID } from 'node:crypto';
import type { ToolContract } from '@imagestudio/contracts';
import type { ActionPlan, IngredientPlan, ManifestPlan } from './thread';

/** What a tool's contract declares: the C2PA action and the IPTC digital source type of its results. */
export type ContentCredentialsDeclaration = NonNullable<ToolContract['contentCredentials']>;

/** Who made a result and from what, as the handler knows it. */
export interface ResultProvenance {
  /**
   * The model or backend that made the pixels: `remote:<model>` for a hosted API, `onnx:<folder>` for a local
   * one. Unset: the claim generator (this worker) is named.
   */
  agent?: string;
  agentVersion?: string;
  /** The image the job started from (an edit): its SHA-256 names the parent ingredient. */
  input?: { bytes: Buffer; name?: string };
}

const IPTC = 'http://cv.iptc.org/newscodes/digitalsourcetype/';

/**
 * The manifest of one result. A generation is one `c2pa.created` action. An edit with its input follows C2PA 2.x:
 * the first action is `c2pa.opened` on the parent ingredient (the input, identified by the SHA-256 of its bytes),
 * then `c2pa.edited` by the model. Both AI actions carry the IPTC digital source type and the model as their
 * software agent.
 */
export function manifestPlan(
  declaration: ContentCredentialsDeclaration,
  format: ManifestPlan['format'],
  provenance: ResultProvenance,
  generator: { name: string; version: string },
): ManifestPlan {
  const agent = {
    name: provenance.agent ?? generator.name,
    ...(provenance.agentVersion && { version: provenance.agentVersion }),
  };
  const ai: ActionPlan = {
    action: declaration.action,
    digitalSourceType: IPTC + declaration.sourceType,
    softwareAgent: agent,
  };
  const ingredients: IngredientPlan[] = [];
  const actions: ActionPlan[] = [];
  if (declaration.action === 'c2pa.edited' && provenance.input) {
    ingredients.push(parentIngredient(provenance.input.bytes, provenance.input.name));
    actions.push({ action: 'c2pa.opened', softwareAgent: generator, ingredient: 0 });
  }
  actions.push(ai);
  return { format, instanceId: `xmp:iid:${randomUUID()}`, generator, ingredients, actions };
}

/** The input as the parent ingredient: its instance id is `sha256:<hex>` of the bytes the user uploaded. */
export function parentIngredient(bytes: Buffer, name?: string): IngredientPlan {
  return {
    title: name ?? 'input',
    format: sniffMediaType(bytes),
    relationship: 'parentOf',
    instanceId: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
  };
}

/** The media type of an uploaded image from its first bytes (the formats the API takes). */
export function sniffMediaType(bytes: Buffer): string {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 3) === 'GIF') return 'image/gif';
  if (ascii(4, 8) === 'ftyp') return /^avi[fs]/.test(ascii(8, 12)) ? 'image/avif' : 'image/heic';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'image/tiff';
  return 'application/octet-stream';
}
