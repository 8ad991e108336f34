import type { Route } from '@imagestudio/contracts';

/**
 * Checks a JSON reply's payload against its route's schema in the route table (what the OpenAPI document
 * describes): it must parse, and parsing must not change it. zod objects drop keys they do not know, so a
 * field the server sends but the schema misses shows up as a difference too.
 */
export function expectReplyMatchesSchema(route: Route, body: { payload?: unknown }): void {
  if (route.reply.kind !== 'json' || !route.reply.payload) throw new Error(`${route.path} has no reply schema`);
  const parsed = route.reply.payload.safeParse(body.payload);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(body.payload);
}
