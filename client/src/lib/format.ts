/** Token amounts have at most one decimal (they step by 0.1): 10 -> "10", 10.5 -> "10.5". */
export function formatTokens(amount: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(amount || 0);
}

/** Join dates: abbreviated month, day, year ("Nov 21, 2026"); blank when missing or invalid. */
export function formatJoinDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);
}

/** Other dates: DD.MM.YYYY; blank when missing or invalid. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const dd = String(date.getDate()).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  return `${dd}.${mm}.${date.getFullYear()}`;
}
