import type { Response } from 'express';
import type { ApiOk } from '@imagestudio/contracts';

/** Sends the success envelope of design.md section 3: `{status:"OK", payload}` plus named extras. */
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
