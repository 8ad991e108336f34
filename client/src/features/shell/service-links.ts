import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { loginRedirectPath } from '../../lib/redirect';

/** The three services; signed-in users go to the tool, guests to Login (coming back to the tool). */
export function serviceLinks(signedIn: boolean): Array<{ key: MessageKey; to: string }> {
  const items: Array<{ key: MessageKey; path: string }> = [
    { key: 'shell.services.generateImage', path: paths.services.generateImage },
    { key: 'shell.services.removeBackground', path: paths.services.removeBackground },
    { key: 'shell.services.upscale', path: paths.services.upscale },
  ];
  return items.map(({ key, path }) => ({ key, to: signedIn ? path : loginRedirectPath(path) }));
}
