/**
 * The custom-amount slider: a position of 0-100 percent maps to
 * tokens = percent / 100 x 1999 + 1, rounded to one decimal and capped at 2000 (1 to 2000 tokens).
 */
export const SLIDER_MIN_TOKENS = 1;
export const SLIDER_MAX_TOKENS = 2000;
/** The slider starts at 10 percent. */
export const DEFAULT_SLIDER_PERCENT = 10;
/** The position steps by a tenth of a percent, fine enough to reach about every other 0.1 token. */
export const SLIDER_STEP_PERCENT = 0.1;

const SPAN = SLIDER_MAX_TOKENS - SLIDER_MIN_TOKENS;

/** Tokens for a slider position (percent, clamped to 0-100). */
export function sliderTokens(percent: number): number {
  const p = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : DEFAULT_SLIDER_PERCENT;
  // Rounded through integer tenths so 10 % gives exactly 200.9, not 200.89999999999998.
  const tenths = Math.round(((p / 100) * SPAN + SLIDER_MIN_TOKENS) * 10);
  return Math.min(SLIDER_MAX_TOKENS, tenths / 10);
}

/** The slider position that shows `tokens` (the inverse, for a choice carried in the URL). */
export function sliderPercent(tokens: number): number {
  if (!Number.isFinite(tokens)) return DEFAULT_SLIDER_PERCENT;
  const clamped = Math.min(SLIDER_MAX_TOKENS, Math.max(SLIDER_MIN_TOKENS, tokens));
  // Round to the slider's step so the position is one the input can hold.
  return Math.round(((clamped - SLIDER_MIN_TOKENS) / SPAN) * 100 * 10) / 10;
}
