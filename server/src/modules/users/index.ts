/** What other modules may use of users; everything else in this folder is internal. */
export { type CurrentUser, toCurrentUser } from './current-user';
export { passwordChangeOrigin, type PasswordChangeOrigin } from './password-change-origin';
export { createSessionUserCache, type SessionUserCache } from './session-user-cache';
export * as usersRepository from './users.repository';
export type { UserRow } from './users.repository';
export { usersRouter } from './users.routes';
