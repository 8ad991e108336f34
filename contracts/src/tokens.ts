/**
 * Tokens are exact to 0.1 and travel between processes as integer tenths.
 * These helpers are the only place that converts between the two forms.
 */

/** Converts a token amount (e.g. 12.3) to integer tenths (123); rounds to the nearest tenth. */
export function tokensToTenths(tokens: number): number {
  return Math.round(tokens * 10);
}

/** Converts integer tenths (123) to the token amount shown to users (12.3). */
export function tenthsToTokens(tenths: number | bigint | string): number {
  return Number(tenths) / 10;
}
