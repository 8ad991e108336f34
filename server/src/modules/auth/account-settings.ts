import { tokensToTenths } from '@imagestudio/contracts';
import { type CatalogDeps, getSettings } from '../catalog';

/** The settings that change account behaviour. */
export interface AccountSettings {
  isRegEnabled: boolean;
  welcomeBonusTenths: number;
  requireEmailVerification: boolean;
}

/** The account settings, from the catalog's settings service (cached in process, defaults filled in). */
export async function readAccountSettings(ctx: CatalogDeps): Promise<AccountSettings> {
  const settings = await getSettings(ctx);
  return {
    isRegEnabled: settings.is_reg_enabled === 1,
    welcomeBonusTenths: tokensToTenths(settings.welcome_bonus_tokens),
    requireEmailVerification: settings.require_email_verification,
  };
}
