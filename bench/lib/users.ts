import { randomUUID } from 'node:crypto';
import { registerUser } from '../../server/src/modules/auth/auth.service';
import { markEmailVerified } from '../../server/src/modules/users/users.repository';
import type { BenchApp } from './app';

/** Registers a user with a verified email through the real service; returns the email to sign in with. */
export async function verifiedBenchUser(app: BenchApp, password: string, tag: string): Promise<string> {
  const email = `bench-${tag}-${randomUUID().slice(0, 12)}@example.test`;
  const user = await registerUser(app.ctx, {
    name: 'Bench',
    surname: 'User',
    email,
    phone: '+33612345678',
    phoneE164: '+33612345678',
    password,
    password_confirmation: password,
  });
  await markEmailVerified(app.ctx.db, user.id);
  return email;
}
