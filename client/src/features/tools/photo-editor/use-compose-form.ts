import { useRef } from 'react';
import { photoFields, type PhotoSettings } from './photo-settings';
import type { CutoutSurfaces } from './preview-canvas';
import type { MatteHistory } from './use-matte-history';

/**
 * The request's form, as compose and its preview both take it: the settings' fields, the background image, and
 * the edited matte. The matte is encoded at most once per state of the edits (a full-size PNG takes a moment),
 * so moving a slider after touching up re-sends the same blob.
 */
export function useComposeForm(
  settings: PhotoSettings,
  backgroundFile: File | null,
  surfaces: CutoutSurfaces | null,
  history: MatteHistory,
): () => Promise<FormData> {
  // The edited matte as the PNG the server takes, and the edits it was encoded from (history.version).
  const encodedMatte = useRef<{ version: number; blob: Promise<Blob> } | null>(null);
  return async () => {
    const body = new FormData();
    for (const [name, value] of Object.entries(photoFields(settings))) body.append(name, value);
    if (settings.background === 'image' && backgroundFile) body.append('background_image', backgroundFile);
    if (surfaces && history.edits.edited) {
      if (encodedMatte.current?.version !== history.version)
        encodedMatte.current = { version: history.version, blob: surfaces.fullMatte(history.edits.strokes) };
      body.append('matte', await encodedMatte.current.blob, 'matte.png');
    }
    return body;
  };
}
