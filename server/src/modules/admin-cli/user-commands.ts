import { tenthsToTokens } from '@imagestudio/contracts';
import { randomUUID } from 'node:crypto';
import { applyEntryNow } from '../ledger';
import { type AdminArgs, type AdminCommand, type AdminDeps, UsageError, str } from './admin-command-kit';
import * as repo from './admin.repository';

function tokensArg(text: string | undefined): number {
  if (!text || !/^\d+(\.\d)?$/.test(text) || Number(text) <= 0)
    throw new UsageError(`tokens must be a positive multiple of 0.1, got "${text ?? ''}"`);
  return Math.round(Number(text) * 10);
}

async function userByEmail(deps: AdminDeps, email: string | undefined) {
  const user = email ? await repo.findUserByEmail(deps.db, email) : null;
  if (!user) throw new UsageError(`no user with email "${email ?? ''}"`);
  return user;
}

async function adjust(deps: AdminDeps, args: AdminArgs, sign: 1 | -1) {
  const [email, amount] = args.positionals;
  const reason = str(args.options.reason)?.trim();
  if (!reason) throw new UsageError('--reason is required');
  const tenths = tokensArg(amount);
  const user = await userByEmail(deps, email);
  const key = str(args.options.key) ?? `admin:${randomUUID()}`;
  const outcome = await applyEntryNow(deps.db, {
    userId: user.id,
    deltaTenths: sign * tenths,
    kind: 'adjustment',
    idempotencyKey: key,
    reason,
    metadata: { source: 'operator-cli' },
  });
  deps.print(
    `${outcome.applied ? (sign > 0 ? 'granted' : 'deducted') : 'already applied'} ${tenthsToTokens(tenths)} tokens ${sign > 0 ? 'to' : 'from'} ${user.email}; balance ${tenthsToTokens(outcome.balanceTenths)}`,
  );
  return {
    email: user.email,
    userId: user.id,
    tokens: (sign * tenths) / 10,
    reason,
    idempotencyKey: key,
    applied: outcome.applied,
  };
}

/** The one way an account becomes an operator (or stops being one); the audit row keeps before and after. */
async function setRole(deps: AdminDeps, email: string | undefined, role: 'customer' | 'admin') {
  const user = await userByEmail(deps, email);
  if (user.role !== role) await repo.setUserRole(deps.db, user.id, role);
  deps.print(user.role === role ? `${user.email} is already ${role}` : `${user.email}: ${user.role} -> ${role}`);
  return { email: user.email, userId: user.id, before: { role: user.role }, after: { role } };
}

/** The account commands (list, tokens, disable, operator role) and the audit log. */
export const USER_COMMANDS: Record<string, AdminCommand> = {
  'users list': {
    usage: 'users list [--search <text>] [--limit <n>]',
    options: { search: { type: 'string' }, limit: { type: 'string' } },
    positionals: [0, 0],
    changes: false,
    run: async (deps, { options }) => {
      const limit = Number(str(options.limit) ?? '50');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be 1..1000');
      for (const u of await repo.listUsers(deps.db, str(options.search), limit)) {
        const flags = [u.email_verified_at ? 'verified' : 'unverified', ...(u.disabled_at ? ['DISABLED'] : [])].join(
          ', ',
        );
        deps.print(
          `${u.email}  ${`${u.name} ${u.surname}`.trim()}  balance ${tenthsToTokens(u.balance_tenths)}  ${flags}  ${u.id}`,
        );
      }
    },
  },
  'users grant': {
    usage: 'users grant <email> <tokens> --reason <text> [--key <idempotency key>]',
    options: { reason: { type: 'string' }, key: { type: 'string' } },
    positionals: [2, 2],
    changes: true,
    run: (deps, args) => adjust(deps, args, 1),
  },
  'users deduct': {
    usage: 'users deduct <email> <tokens> --reason <text> [--key <idempotency key>]',
    options: { reason: { type: 'string' }, key: { type: 'string' } },
    positionals: [2, 2],
    changes: true,
    run: (deps, args) => adjust(deps, args, -1),
  },
  'users disable': {
    usage: 'users disable <email>        (signs the user out everywhere)',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [email] }) => {
      const user = await userByEmail(deps, email);
      await repo.setUserDisabled(deps.db, user.id, true);
      deps.print(`disabled ${user.email}`);
      return { email: user.email, userId: user.id };
    },
  },
  'users enable': {
    usage: 'users enable <email>',
    positionals: [1, 1],
    changes: true,
    run: async (deps, { positionals: [email] }) => {
      const user = await userByEmail(deps, email);
      await repo.setUserDisabled(deps.db, user.id, false);
      deps.print(`enabled ${user.email}`);
      return { email: user.email, userId: user.id };
    },
  },
  'users promote': {
    usage: 'users promote <email>        (makes the account an operator: the /admin console)',
    positionals: [1, 1],
    changes: true,
    run: (deps, { positionals: [email] }) => setRole(deps, email, 'admin'),
  },
  'users demote': {
    usage: 'users demote <email>         (back to a customer account)',
    positionals: [1, 1],
    changes: true,
    run: (deps, { positionals: [email] }) => setRole(deps, email, 'customer'),
  },
  'log show': {
    usage: 'log show [--limit <n>]     (the audit log of changes)',
    options: { limit: { type: 'string' } },
    positionals: [0, 0],
    changes: false,
    run: async (deps, { options }) => {
      for (const row of await repo.listAudit(deps.db, Number(str(options.limit) ?? '20') || 20)) {
        deps.print(`${row.created_at.toISOString()} ${row.operator} ${row.command} ${JSON.stringify(row.details)}`);
      }
    },
  },
};
