import type { Response } from 'express';
import type { ApiOkExtras } from '@imagestudio/contracts';

/** Sends the success envelope (docs/api-conventions.md#the-envelope): `{status:"OK", payload}` plus named extras. */
export function sendOk<T>(res: Response, payload?: T, extra: ApiOkExtras = {}, httpStatus = 200): void {
  res.status(httpStatus).json({ status: 'OK', ...extra, ...(payload !== undefined ? { payload } : {}) });
}
