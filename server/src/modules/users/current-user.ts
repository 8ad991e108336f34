import type { UserRow } from './users.repository';

/** The signed-in user as request handlers see it (loaded fresh from Postgres on every request). */
export type CurrentUser = Omit<UserRow, 'password_hash'>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // passport types req.user as Express.User; ours is the users row without its password hash.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends CurrentUser {}
  }
}

/** Drops the password hash: request handlers never need it and it must never reach a response. */
export function toCurrentUser(row: UserRow): CurrentUser {
  const { password_hash: _hash, ...rest } = row;
  return rest;
}
