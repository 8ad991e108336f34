import { SETTING_KEYS, defaultSettings, settingsSchema, type SettingKey, type Settings } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import * as repo from './settings.repository';

/**
 * Stored values over the defaults. A stored value that no longer passes the schema (edited by hand)
 * is ignored in favour of the default, so one bad row never takes the site down.
 */
function mergeStored(stored: Map<string, unknown>): Settings {
  const merged: Record<string, unknown> = { ...defaultSettings() };
  for (const key of SETTING_KEYS) {
    if (!stored.has(key)) continue;
    const parsed = settingsSchema.shape[key].safeParse(stored.get(key));
    if (parsed.success) merged[key] = parsed.data;
  }
  return Object.freeze(merged) as Settings;
}

/** The site settings (defaults in contracts/src/settings.ts), cached in process. */
export function getSettings(deps: CatalogDeps): Promise<Settings> {
  return catalogCache(deps).get('settings', async () => mergeStored(await repo.readSettingRows(deps.db)));
}

/** Whether `key` names a setting. */
export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as string[]).includes(key);
}

/** Validates and stores one setting; 422 with the schema's message when the value does not fit. */
export async function updateSetting(deps: CatalogDeps, key: string, value: unknown): Promise<Settings> {
  if (!isSettingKey(key)) throw validationError({ key: [`Unknown setting "${key}"`] });
  const parsed = settingsSchema.shape[key].safeParse(value);
  if (!parsed.success) throw validationError({ [key]: parsed.error.issues.map((i) => i.message) });
  await repo.writeSetting(deps.db, key, parsed.data);
  catalogCache(deps).invalidate();
  return getSettings(deps);
}
