import type { Request, Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { audit, auditWriter } from './admin-audit';
import { requireReauth } from './admin-guard';
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
export function addUserRoutes(router: Router, ctx: AppContext): void {
  const r = routes.admin;
  const reauth = { before: [requireReauth] };

  mountRoute(router, r.users, ({ query: { page, q } }) => service.searchUsers(ctx, q, page));

  mountRoute(router, r.user, async ({ req, params }) => {
    const user = await service.userDetail(ctx, params.id);
    await audit(ctx, req, 'users.view', `user:${user.id}`);
    return user;
  });

  mountRoute(
    router,
    r.adjustBalance,
    ({ req, params, body: input }) =>
      service.adjustBalance(
        ctx,
        req.user!.id,
        params.id,
        input,
        idempotencyKey(req),
        auditWriter(ctx, req, 'users.adjust'),
      ),
    reauth,
  );

  for (const [route, action, disabled] of [
    [r.disableUser, 'disable', true],
    [r.enableUser, 'enable', false],
  ] as const) {
    mountRoute(
      router,
      route,
      async ({ req, params }) =>
        (await service.setDisabled(ctx, req.user!.id, params.id, disabled, auditWriter(ctx, req, `users.${action}`)))
          .after,
      reauth,
    );
  }

  mountRoute(
    router,
    r.signOutUser,
    ({ req, params }) => service.signOutEverywhere(ctx, params.id, auditWriter(ctx, req, 'users.sign-out')),
    reauth,
  );

  mountRoute(
    router,
    r.revokeUserKey,
    ({ req, params }) => service.revokeUserKey(ctx, params.id, params.keyId, auditWriter(ctx, req, 'users.revoke-key')),
    reauth,
  );

  mountRoute(router, r.resendVerification, async ({ req, params }) => {
    const result = await service.resendUserVerification(ctx, params.id);
    await audit(ctx, req, 'users.resend-verification', `user:${params.id}`, result);
  });
}
