import { useEffect, useState } from 'react';
import { endpoints, type ComposeSourcesView, type JobView } from '@imagestudio/contracts';
import { useStore } from '../../../stores';
import { composeSourcesOf } from './compose-sources';
import { loadDraft } from './matte-draft';
import { CutoutSurfaces, loadImage } from './preview-canvas';
import type { MatteHistory } from './use-matte-history';

export type Loaded = { state: 'loading' } | { state: 'ready'; surfaces: CutoutSurfaces } | { state: 'unavailable' };

/** Reads the job's compose sources, asking for the job again when the view on hand (a live report) lacks them. */
async function sourcesFor(job: JobView, refetch: () => Promise<JobView | null>): Promise<ComposeSourcesView | null> {
  const own = composeSourcesOf(job);
  if (own !== undefined) return own;
  const fresh = await refetch();
  return fresh ? (composeSourcesOf(fresh) ?? null) : null;
}

/**
 * The job's cut-out for the editor: its compose sources and the saved draft's strokes, then the foreground and
 * matte images drawn into the browser's surfaces (with the draft painted on). `hasSources` turns true once the
 * server can render previews, which may be before the browser's copies have loaded.
 */
export function useCutout(job: JobView, history: MatteHistory): { loaded: Loaded; hasSources: boolean } {
  const { api } = useStore();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [hasSources, setHasSources] = useState(false);
  useEffect(() => {
    let gone = false;
    setLoaded({ state: 'loading' });
    setHasSources(false);
    const saver = history.start(api, job.id);
    void (async () => {
      try {
        const [sources, strokes] = await Promise.all([
          sourcesFor(
            job,
            async () =>
              (await api.call(endpoints.jobs.get, { params: { id: job.id } }, { skipErrorHandling: true })).payload ??
              null,
          ),
          loadDraft(api, job.id),
        ]);
        if (!sources) throw new Error('no compose sources');
        // With a draft the first preview waits for the matte it paints, rather than showing the picture without it.
        if (!gone && strokes.length === 0) setHasSources(true);
        const [fg, matte] = await Promise.all([loadImage(sources.foreground_url), loadImage(sources.matte_url)]);
        if (gone) return;
        const surfaces = new CutoutSurfaces(fg, matte, sources.width, sources.height);
        if (strokes.length > 0) {
          history.restore(strokes, surfaces);
          setHasSources(true);
        }
        setLoaded({ state: 'ready', surfaces });
      } catch {
        if (!gone) setLoaded({ state: 'unavailable' });
      }
    })();
    return () => {
      gone = true;
      // Leaving the job or the page: what waits is sent now rather than dropped with the timer.
      saver.dispose();
      void saver.flush();
    };
  }, [job.id]);
  return { loaded, hasSources };
}
