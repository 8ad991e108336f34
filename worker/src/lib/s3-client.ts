/**
 * The worker builds its S3 client, and reads and writes objects, exactly as the API does: one implementation in
 * server/src/lib/s3-client.ts, which depends on the AWS SDK only.
 */
export { createS3Client, getObjectBytes, putObject, type S3ClientSettings } from '../../../server/src/lib/s3-client';
