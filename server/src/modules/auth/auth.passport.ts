import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import { usersRepository as users, toCurrentUser } from '../users';
import { verifyCredentials } from './auth.service';

/** passport's `info.message` for a disabled account whose password was right. */
export const ACCOUNT_DISABLED = 'account_disabled';

/** What a session stores about its user: the id and the epoch it signed in under. */
interface SessionRef {
  id: string;
  epoch: number;
}

/** A Passport instance of its own. */
export type AppPassport = InstanceType<typeof Passport>;

/** What the strategy and the session (de)serialisers use. */
export type PassportDeps = Pick<AppContext, 'db'> & { services: Pick<AppServices, 'passwords' | 'sessionUsers'> };

/**
 * One Passport instance per app (not the global singleton, so apps built by tests stay apart), with the
 * local strategy on `username` + `password` as the client sends them.
 */
export function createPassport(ctx: PassportDeps): AppPassport {
  const passport = new Passport();
  passport.use(
    new LocalStrategy({ usernameField: 'username', passwordField: 'password' }, (email, password, done) => {
      // A disabled account with the right password fails with `info` saying so (the route words it).
      verifyCredentials(ctx, email, password).then(
        (check) =>
          check && 'user' in check
            ? done(null, toCurrentUser(check.user))
            : done(null, false, check ? { message: ACCOUNT_DISABLED } : undefined),
        (err) => done(err),
      );
    }),
  );
  passport.serializeUser<SessionRef>((user, done) => done(null, { id: user.id, epoch: user.session_epoch }));
  // A session whose epoch is behind the user's (password reset or change since) or whose user is
  // disabled or gone no longer authenticates: `false` makes passport drop the login from the session.
  // The row comes from the session user cache, which drops it on every change notice; a cached row that
  // refuses the session is read again from Postgres before the session ends (it may predate a sign-in).
  passport.deserializeUser<SessionRef>((ref, done) => {
    const accepts = (row: users.SessionUser | null) => !!row && !row.disabled_at && row.session_epoch === ref.epoch;
    const cache = ctx.services.sessionUsers;
    cache
      .get(ref.id)
      .then((row) => (accepts(row) ? row : cache.refresh(ref.id)))
      .then(
        (row) => done(null, accepts(row) ? row : false),
        (err) => done(err),
      );
  });
  return passport;
}
