import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { WorkerStorage } from '../storage/storage';

export interface LocalS3 {
  /** http://127.0.0.1:<port>, for S3_ENDPOINT. */
  endpoint: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) for a worker test: a free loopback port, one bucket, and a temporary folder of
 * its own that stop() removes.
 */
export async function startLocalS3(bucket: string): Promise<LocalS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${bucket}-s3-`));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The worker's S3 access to a fresh local S3 server with one bucket: close `storage`, then stop `s3`. */
export async function startLocalStorage(bucket: string): Promise<{ s3: LocalS3; storage: WorkerStorage }> {
  const s3 = await startLocalS3(bucket);
  const storage = await WorkerStorage.open({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return { s3, storage };
}
