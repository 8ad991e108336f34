import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { JobName } from '@imagestudio/contracts';

/**
 * The way back to a tool across a token purchase: "Buy N tokens" in a tool keeps the tool's path and the chosen
 * files in IndexedDB (Files survive there, unlike localStorage, and the checkout leaves the app for another
 * origin); the success page offers the way back, and the tool takes its selection back once. Best effort: with
 * IndexedDB unavailable (private mode, quota) the purchase works as before, without the way back.
 */
export interface CheckoutReturn {
  tool: JobName;
  /** The tool page's path, e.g. /services/remove-background. */
  path: string;
  files: File[];
  /**
   * The tool's options as the page had them (its own values, e.g. factor, model, output format), restored with
   * the files; absent in entries kept before options were.
   */
  options?: Record<string, unknown>;
  savedAt: number;
}

/** A purchase takes minutes; a selection kept longer than this is from another visit. */
const KEEP_MS = 2 * 60 * 60 * 1000;
const KEY = 'checkout-return';

let db: UseStore | null = null;
function store(): UseStore | null {
  try {
    db ??= createStore('imagestudio', 'checkout-return');
    return db;
  } catch {
    return null;
  }
}

/** The query parameter of the tool's URL that asks it to take the kept selection back. */
export const RESTORE_PARAM = 'restore';

/** Keeps a tool's selection and options for the way back from checkout (replacing any older one). */
export async function keepForCheckout(
  tool: JobName,
  path: string,
  files: File[],
  options: Record<string, unknown> = {},
): Promise<void> {
  const s = store();
  if (!s) return;
  try {
    await set(KEY, { tool, path, files, options, savedAt: Date.now() } satisfies CheckoutReturn, s);
  } catch {
    // Persistence is best effort.
  }
}

/** The kept way back, if fresh; left in place (the success page may render more than once). */
export async function checkoutReturn(): Promise<CheckoutReturn | null> {
  const s = store();
  if (!s) return null;
  try {
    const kept = await get<CheckoutReturn>(KEY, s);
    return kept && Date.now() - kept.savedAt < KEEP_MS ? kept : null;
  } catch {
    return null;
  }
}

/** What a tool takes back: its files and its options (null when none were kept). */
export interface CheckoutSelection {
  files: File[];
  options: Record<string, unknown> | null;
}

/** The kept selection of `tool`, removed: a tool takes it back once. */
export async function takeCheckoutSelection(tool: JobName): Promise<CheckoutSelection> {
  const kept = await checkoutReturn();
  if (!kept || kept.tool !== tool) return { files: [], options: null };
  try {
    await del(KEY, store()!);
  } catch {
    // Taken anyway; a stale entry expires.
  }
  return { files: kept.files, options: kept.options ?? null };
}
