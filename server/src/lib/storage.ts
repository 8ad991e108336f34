import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import S3rver from 's3rver';
import type { Logger } from '@imagestudio/runtime';
import { createS3Client, getObjectBytes, putObject } from '@imagestudio/runtime';
import { attachmentDisposition } from './content-disposition';

/**
 * CORS rule of the embedded S3 server: GET and HEAD from the app's own origin only (the browser fetches
 * presigned results for follow-up tools); no other site may read from it.
 */
function corsAllowGetFrom(origin: string): string {
  const escaped = origin.replace(/[<>&]/g, '');
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${escaped}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

export interface StorageSettings {
  endpoint?: string;
  /**
   * The address browsers reach the store at, put in every presigned URL (signed for that host); unset = the
   * endpoint. Differs when the API reaches S3 by an internal name (http://minio:9000 inside compose).
   */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Used only without `endpoint`: where the embedded S3 server keeps its files, and its port. */
  localDir: string;
  localPort: number;
  /** Used only without `endpoint`: the one origin (the app's) the embedded server answers CORS requests of. */
  appOrigin?: string;
}

/**
 * The server's one S3 module. With an endpoint it talks to any S3-compatible store; without one it
 * starts an embedded s3rver on loopback first, so the same code path runs on every machine.
 */
export class Storage {
  private constructor(
    readonly client: S3Client,
    readonly bucket: string,
    readonly endpoint: string,
    /** Where presigned URLs point (the browser's way to the store); the CSP allows its origin. */
    readonly publicEndpoint: string,
    /** Signs presigned URLs for publicEndpoint; signing sends nothing, so it never needs to reach that host. */
    private readonly signer: S3Client,
    private readonly embedded: S3rver | null,
  ) {}

  static async open(settings: StorageSettings, logger?: Logger): Promise<Storage> {
    let endpoint = settings.endpoint;
    let embedded: S3rver | null = null;
    if (!endpoint) {
      await fs.mkdir(settings.localDir, { recursive: true });
      embedded = new S3rver({
        address: '127.0.0.1',
        port: settings.localPort,
        directory: settings.localDir,
        silent: true,
        // Presigned result URLs are read by the browser (follow-up tools fetch a result as a file).
        configureBuckets: [
          { name: settings.bucket, configs: settings.appOrigin ? [corsAllowGetFrom(settings.appOrigin)] : [] },
        ],
      });
      const { port } = (await embedded.run()) as { port: number };
      endpoint = `http://127.0.0.1:${port}`;
      logger?.info({ endpoint, dir: settings.localDir }, 'embedded S3 server started');
    }
    const client = createS3Client({ ...settings, endpoint });
    const publicEndpoint = settings.publicEndpoint ?? endpoint;
    const signer = publicEndpoint === endpoint ? client : createS3Client({ ...settings, endpoint: publicEndpoint });
    const storage = new Storage(client, settings.bucket, endpoint, publicEndpoint, signer, embedded);
    await storage.ensureBucket();
    return storage;
  }

  /** Creates the bucket when it does not exist yet. */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  /** Readiness probe: the bucket answers. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  put(key: string, body: Buffer, contentType: string): Promise<void> {
    return putObject(this.client, this.bucket, key, body, contentType);
  }

  get(key: string): Promise<Buffer> {
    return getObjectBytes(this.client, this.bucket, key);
  }

  /** An object as a stream, read as it is consumed (the batch ZIP streams results through without holding them). */
  async getStream(key: string): Promise<Readable> {
    const reply = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!reply.Body) throw new Error(`S3 object ${key} has no body`);
    return reply.Body as Readable;
  }

  /** A short-lived GET URL the browser can load directly, on the public endpoint. */
  async presignGet(key: string, expiresInSeconds = 900, downloadName?: string): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: downloadName ? attachmentDisposition(downloadName) : undefined,
    });
    return getSignedUrl(this.signer, command, { expiresIn: expiresInSeconds });
  }

  /** Deletes every object under a prefix (e.g. one job's inputs or results). */
  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length > 0) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys } }));
        deleted += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
    if (this.embedded) await this.embedded.close();
  }
}
