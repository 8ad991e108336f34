import { z } from 'zod';
import { envBool } from '@imagestudio/runtime';

/**
 * The worker's Content Credentials settings (docs/content-credentials.md), spread into config.ts's schema.
 * Without a certificate of the operator's, the worker makes a development one under C2PA_DEV_CERT_DIR once.
 */
export const contentCredentialsEnv = {
  /** PEM certificate chain the results are signed with: the signing certificate first, then its issuers. */
  C2PA_SIGN_CERT_FILE: z.string().min(1).optional(),
  /** PEM private key of the signing certificate (PKCS#8 or SEC1; EC P-256 or P-384, Ed25519 or RSA). */
  C2PA_SIGN_KEY_FILE: z.string().min(1).optional(),
  /** Where the development certificate is made and kept when the two above are unset (relative to the project). */
  C2PA_DEV_CERT_DIR: z.string().min(1).default('data/content-credentials'),
  /**
   * Also sign the results of tools that declare no Content Credentials (background removal, upscaling) as
   * `c2pa.edited`; off by default: they keep the IPTC tag in their XMP only.
   */
  C2PA_SIGN_ALL_RESULTS: envBool.default(false),
};
