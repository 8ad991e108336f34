import { useState } from 'react';
import { endpoints, resultDownloadName, type JobView } from '@imagestudio/contracts';
import { useStore } from '../../../stores';

/** Saves a blob under `name` (the browser's download). */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Download: renders the full-size picture through the free `POST /api/jobs/{id}/compose` and saves it in the chosen
 * format. `busy` while it runs; `failed` when something other than a refused option (the API's toast) went wrong.
 */
export function useComposeDownload(job: JobView, composeForm: () => Promise<FormData>, canDownload: boolean) {
  const { api } = useStore();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    if (!canDownload) return;
    setBusy(true);
    setFailed(false);
    try {
      const body = await composeForm();
      const reply = await api.call(endpoints.jobs.compose, { params: { id: job.id }, body });
      const made = reply.payload;
      const file = await fetch(made.url);
      if (!file.ok) throw new Error(`download answered ${file.status}`);
      saveBlob(await file.blob(), resultDownloadName(job, 0, made.format));
    } catch {
      // A refused option was shown by the API's error toast; anything else is said here.
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return { busy, failed, download };
}
