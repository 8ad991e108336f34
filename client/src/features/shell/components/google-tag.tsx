import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { loadGoogleTag } from '../../../lib/google-tag';
import { useStore } from '../../../stores';

/** Loads the `google_tag` of settings once the visitor has accepted cookies, never before. */
export const GoogleTag = observer(function GoogleTag() {
  const { settings, ui } = useStore();
  const tag = settings.settings?.google_tag?.trim();
  const consent = ui.cookieConsent;
  useEffect(() => {
    if (consent && tag) loadGoogleTag(tag);
  }, [consent, tag]);
  return null;
});
