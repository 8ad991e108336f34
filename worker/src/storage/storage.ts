import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export interface WorkerStorageSettings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * The worker's one S3 module: reads job inputs, writes results. Any S3-compatible store (the API's
 * embedded s3rver, MinIO, AWS, R2) through the same code; the worker never starts a store itself.
 */
export class WorkerStorage {
  private constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  /** Connects and checks that the bucket answers, so a wrong endpoint fails at start, not at the first job. */
  static async open(settings: WorkerStorageSettings): Promise<WorkerStorage> {
    const client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Same as the API: without these the SDK frames uploads with checksums that s3rver stores inside the object.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
    const storage = new WorkerStorage(client, settings.bucket);
    try {
      await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    } catch (err) {
      client.destroy();
      throw new Error(`S3 bucket "${settings.bucket}" at ${settings.endpoint} is not reachable: ${(err as Error).message || (err as Error).name}`, { cause: err });
    }
    return storage;
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const chunks: Buffer[] = [];
    for await (const chunk of out.Body as Readable) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  close(): void {
    this.client.destroy();
  }
}

/** Deterministic result key, so a re-run of the same job overwrites its own files. */
export function resultKey(userId: string, jobId: string, index: number, ext: string): string {
  return `results/${userId}/${jobId}/${index}.${ext}`;
}
