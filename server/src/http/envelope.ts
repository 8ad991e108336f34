import type { Response } from 'express';
import type { ApiOk } from '@imagestudio/contracts';

/** Sends the success envelope (docs/api-conventions.md#the-envelope): `{status:"OK", payload}` plus named extras. */
export function sendOk<T>(
  res: Response,
  payload?: T,
  extra: Omit<ApiOk<T>, 'status' | 'payload'> = {},
  httpStatus = 200,
): void {
  const body: ApiOk<T> = { status: 'OK', ...extra };
  if (payload !== undefined) body.payload = payload;
  res.status(httpStatus).json(body);
}
