import { toolContract, type JobName } from '@imagestudio/contracts';
import { fromProjectRoot, type Logger } from '@imagestudio/runtime';
import type { OutputFormat } from '../imaging/encode';
import { developmentMaterial, developmentRootFile, loadSigningFiles, type SigningMaterial } from './certificates';
import { libraryPaths } from './library';
import { type ContentCredentialsDeclaration, type ResultProvenance, manifestPlan } from './plan';
import { C2paThread, type RawReport } from './thread';

export interface ContentCredentialsSettings {
  C2PA_SIGN_CERT_FILE?: string;
  C2PA_SIGN_KEY_FILE?: string;
  C2PA_DEV_CERT_DIR: string;
  C2PA_SIGN_ALL_RESULTS: boolean;
}

/** How the results of one tool are signed (ContentCredentials.forTool). */
export interface ResultSigning {
  declaration: ContentCredentialsDeclaration;
  /** The result with its manifest embedded; a WebP result comes back as it was (c2pa-ts writes PNG and JPEG). */
  sign(data: Buffer, format: OutputFormat, provenance: ResultProvenance, logger: Logger): Promise<Buffer>;
}

/** Background removal and upscaling with C2PA_SIGN_ALL_RESULTS: edits whose XMP already says "composite". */
const UNDECLARED_EDIT: ContentCredentialsDeclaration = {
  action: 'c2pa.edited',
  sourceType: 'compositeWithTrainedAlgorithmicMedia',
};

const MEDIA_TYPES: Partial<Record<OutputFormat, 'image/png' | 'image/jpeg'>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
};

/**
 * The worker's signer of results: the certificate chosen at start (the operator's, or the development one made
 * once), and one thread that embeds the manifests (thread.ts).
 */
export class ContentCredentials {
  private constructor(
    private readonly thread: C2paThread,
    readonly material: SigningMaterial,
    private readonly signAll: boolean,
    private readonly generator: { name: string; version: string },
  ) {}

  /** Loads or makes the certificate; logs one line when it is the development one. */
  static async start(
    settings: ContentCredentialsSettings,
    logger: Logger,
    generator: { name: string; version: string },
  ): Promise<ContentCredentials> {
    const material = await signingMaterial(settings);
    if (material.source !== 'operator') {
      const dir = fromProjectRoot(settings.C2PA_DEV_CERT_DIR);
      logger
        .child({ module: 'content-credentials' })
        .warn(
          { dir, root: developmentRootFile(dir), made: material.source === 'development (made now)' },
          'content credentials: signing with a development certificate that no verifier trusts; set C2PA_SIGN_CERT_FILE and C2PA_SIGN_KEY_FILE to a real one',
        );
    }
    const thread = new C2paThread(libraryPaths(), material);
    return new ContentCredentials(thread, material, settings.C2PA_SIGN_ALL_RESULTS, generator);
  }

  /** How `tool`'s results are signed: by its contract's declaration, or not at all (unless C2PA_SIGN_ALL_RESULTS). */
  forTool(tool: JobName): ResultSigning | undefined {
    const declaration = toolContract(tool).contentCredentials ?? (this.signAll ? UNDECLARED_EDIT : undefined);
    if (!declaration) return undefined;
    return {
      declaration,
      sign: async (data, format, provenance, logger) => {
        const mediaType = MEDIA_TYPES[format];
        if (!mediaType) {
          logger.warn({ format }, 'content credentials: not embedded, the C2PA library writes PNG and JPEG only');
          return data;
        }
        return this.thread.sign(data, manifestPlan(declaration, mediaType, provenance, this.generator));
      },
    };
  }

  /** Reads and validates a file's manifest with the same library (no trust decision: reader.ts makes it). */
  read(bytes: Buffer): Promise<RawReport> {
    return this.thread.read(bytes);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

async function signingMaterial(settings: ContentCredentialsSettings): Promise<SigningMaterial> {
  const { C2PA_SIGN_CERT_FILE: cert, C2PA_SIGN_KEY_FILE: key } = settings;
  if (cert && key) return loadSigningFiles(fromProjectRoot(cert), fromProjectRoot(key));
  if (cert || key) throw new Error('C2PA_SIGN_CERT_FILE and C2PA_SIGN_KEY_FILE are set together or not at all');
  return developmentMaterial(fromProjectRoot(settings.C2PA_DEV_CERT_DIR));
}
