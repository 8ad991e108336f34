import type { Request } from 'express';
import type { AppContext } from '../../context';
import { audit, auditWriter } from './admin-audit';
import { type AdminHandlers, REAUTH } from './admin-handlers';
import * as service from './admin.service';

/** The longest Idempotency-Key kept (characters). */
const MAX_IDEMPOTENCY_KEY = 200;

const idempotencyKey = (req: Request) => {
  const key = req.get('Idempotency-Key')?.trim();
  return key ? key.slice(0, MAX_IDEMPOTENCY_KEY) : undefined;
};

/**
 * The console's customers: search and detail, and the account changes, each behind a confirmed password. A
 * change of rows writes its audit row in its own transaction (the service's); resending a verification mails, so
 * it is audited once it has succeeded.
 */
export function userHandlers(ctx: AppContext) {
  const setDisabled = async (req: Request, id: string, disabled: boolean) =>
    (
      await service.setDisabled(
        ctx,
        req.user!.id,
        id,
        disabled,
        auditWriter(ctx, req, disabled ? 'users.disable' : 'users.enable'),
      )
    ).after;

  return {
    users: ({ query: { page, q } }) => service.searchUsers(ctx, q, page),

    user: async ({ req, params }) => {
      const user = await service.userDetail(ctx, params.id);
      await audit(ctx, req, 'users.view', `user:${user.id}`);
      return user;
    },

    adjustBalance: {
      handler: ({ req, params, body: input }) =>
        service.adjustBalance(
          ctx,
          req.user!.id,
          params.id,
          input,
          idempotencyKey(req),
          auditWriter(ctx, req, 'users.adjust'),
        ),
      before: REAUTH,
    },

    disableUser: { handler: ({ req, params }) => setDisabled(req, params.id, true), before: REAUTH },
    enableUser: { handler: ({ req, params }) => setDisabled(req, params.id, false), before: REAUTH },

    signOutUser: {
      handler: ({ req, params }) => service.signOutEverywhere(ctx, params.id, auditWriter(ctx, req, 'users.sign-out')),
      before: REAUTH,
    },

    revokeUserKey: {
      handler: ({ req, params }) =>
        service.revokeUserKey(ctx, params.id, params.keyId, auditWriter(ctx, req, 'users.revoke-key')),
      before: REAUTH,
    },

    resendVerification: async ({ req, params }) => {
      const result = await service.resendUserVerification(ctx, params.id);
      await audit(ctx, req, 'users.resend-verification', `user:${params.id}`, result);
    },
  } satisfies AdminHandlers;
}
