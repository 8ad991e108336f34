import { useEffect, useState } from 'react';
import { endpoints } from '@imagestudio/contracts';
import { ApiRequestError } from '../../../lib/api/api-error';
import { useStore } from '../../../stores';

/**
 * How long the settings must rest before the server is asked for a preview: a slider dragged or a colour picked
 * sends one request when it settles, not one per step.
 */
export const PREVIEW_DELAY_MS = 250;

/** The words to show for a failed preview: the API's own (a refused field's first), else the generic one. */
function previewErrorText(err: unknown, fallback: string): string {
  if (err instanceof ApiRequestError && err.kind === 'http') return err.firstFieldError() || err.message || fallback;
  return fallback;
}

export interface PreviewInputs {
  jobId: string;
  /** Previews are asked for in the layout view only, once the server has the cut-out and the settings are complete. */
  layout: boolean;
  hasSources: boolean;
  ready: boolean;
  /** What the request depends on: the settings' fields, the background image, the state of the edits. */
  fieldsKey: string;
  backgroundFile: File | null;
  editsVersion: number;
  composeForm(): Promise<FormData>;
}

/**
 * The layout view's picture, rendered by the server: asked for once the inputs rest for PREVIEW_DELAY_MS, one
 * request at a time (a change aborts the one in flight, so the newest settings win). Gives the object URL of the
 * latest image, whether a newer one is on its way, and what failed.
 */
export function useComposePreview(inputs: PreviewInputs) {
  const { api, t } = useStore();
  const { jobId, layout, hasSources, ready, fieldsKey, backgroundFile, editsVersion, composeForm } = inputs;
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [previewBusy, setPreviewBusy] = useState(false);
  const [previewError, setPreviewError] = useState<string | null>(null);

  // The preview's image is let go when it is replaced and when the editor goes.
  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  useEffect(() => {
    if (!layout || !hasSources || !ready) {
      setPreviewBusy(false);
      return;
    }
    const controller = new AbortController();
    setPreviewBusy(true);
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const body = await composeForm();
          const image = await api.image(
            endpoints.jobs.composePreview,
            { params: { id: jobId }, body },
            { signal: controller.signal, skipErrorHandling: true },
          );
          if (controller.signal.aborted) return;
          setPreviewUrl(URL.createObjectURL(image));
          setPreviewError(null);
        } catch (err) {
          if (controller.signal.aborted) return;
          setPreviewError(previewErrorText(err, t('client-tools.editor.failed')));
        }
        setPreviewBusy(false);
      })();
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [hasSources, fieldsKey, backgroundFile, layout, editsVersion, ready, jobId]);

  return { previewUrl, previewBusy, previewError };
}
