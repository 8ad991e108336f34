import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client, getObjectBytes, putObject, type S3ClientSettings } from '@imagestudio/runtime';

export interface WorkerStorageSettings extends S3ClientSettings {
  bucket: string;
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
    const client = createS3Client(settings);
    const storage = new WorkerStorage(client, settings.bucket);
    try {
      await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    } catch (err) {
      client.destroy();
      throw new Error(
        `S3 bucket "${settings.bucket}" at ${settings.endpoint} is not reachable: ${(err as Error).message || (err as Error).name}`,
        { cause: err },
      );
    }
    return storage;
  }

  get(key: string): Promise<Buffer> {
    return getObjectBytes(this.client, this.bucket, key);
  }

  put(key: string, body: Buffer, contentType: string): Promise<void> {
    return putObject(this.client, this.bucket, key, body, contentType);
  }

  close(): void {
    this.client.destroy();
  }
}
