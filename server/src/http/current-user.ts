import type { Request, RequestHandler } from 'express';
import { unauthenticated } from '../lib/errors';

// The shape of `req.user` (the users row without its password hash) is declared by the users module
// (modules/users/current-user.ts); the HTTP layer only checks that someone is signed in.

/** The signed-in user; throws the 401 envelope for guests (use after requireUser, or on its own). */
export function currentUser(req: Request): Express.User {
  if (!req.user) throw unauthenticated();
  return req.user;
}

/** 401 `{code:"unauthenticated", message:"Unauthenticated."}` unless a user is signed in. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthenticated());
};
