import argon2 from 'argon2';
import type { Config } from '../../config';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Verifies against a stored hash; with `null` it verifies against a dummy so unknown emails take as long. */
  verify(hash: string | null, password: string): Promise<boolean>;
}

/** argon2id with the configured cost. A hash's own parameters are used to verify it, so costs can rise later. */
export function createPasswordHasher(config: Config): PasswordHasher {
  const options = {
    type: argon2.argon2id,
    memoryCost: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_TIME_COST,
    parallelism: config.ARGON2_PARALLELISM,
  } as const;
  // Computed once, lazily: verifying a wrong password against it costs what a real verify costs.
  let dummy: Promise<string> | null = null;
  return {
    hash: (password) => argon2.hash(password, options),
    async verify(hash, password) {
      if (hash === null) {
        dummy ??= argon2.hash('dummy-password-for-timing', options);
        await argon2.verify(await dummy, password).catch(() => false);
        return false;
      }
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}
