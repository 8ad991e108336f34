import { z } from 'zod';
import { ConfigError, parseEnv, queueEnv, s3Env } from './env';

const schema = z.object({ ...queueEnv, ...s3Env, S3_ENDPOINT: z.string().url() });

describe('parseEnv', () => {
  it('reports every invalid variable at once, under the given title', () => {
    let error: unknown;
    try {
      parseEnv(schema, { QUEUE_REDIS_DB: '99', S3_FORCE_PATH_STYLE: 'maybe' }, 'Invalid worker configuration');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'QUEUE_REDIS_DB',
      'S3_ENDPOINT',
      'S3_FORCE_PATH_STYLE',
    ]);
    expect(message.startsWith('Invalid worker configuration:\n  - ')).toBe(true);
  });

  it('treats empty strings as unset, so defaults apply', () => {
    const value = parseEnv(schema, { REDIS_URL: '', S3_BUCKET: '', S3_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(value.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(value.S3_BUCKET).toBe('imagestudio');
    expect(value.S3_FORCE_PATH_STYLE).toBe(true);
  });
});
