import { Spinner } from '../../../components';
import { useT } from '../../../stores';

/**
 * The layout view: the server's picture of the settings (dimmed while a newer one is on its way), a spinner
 * until the first arrives, nothing where it failed (the error is said under the frame).
 */
export function LayoutPreview({ url, busy, error }: { url: string | null; busy: boolean; error: string | null }) {
  const t = useT();
  if (url)
    return (
      <img
        // The checkerboard sits behind the picture itself: it shows where the result is transparent.
        className={`photo-editor__canvas checkerboard${busy ? ' photo-editor__canvas--busy' : ''}`}
        src={url}
        alt={t('client-tools.editor.preview')}
        aria-busy={busy}
        data-testid="photo-preview"
        data-mode="layout"
        data-busy={busy}
      />
    );
  return error ? null : <Spinner label={t('client-tools.editor.loading')} />;
}
