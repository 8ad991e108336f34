import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { JobName } from '@imagestudio/contracts';
import { useStore } from '../../stores';

/**
 * What every tool page does on arrival: ask which tools can run, and open the job named by `?job=`
 * (from My Projects, or the page's own URL after a reload). Returns the tool's run store.
 */
export function useToolPage(tool: JobName) {
  const { tools } = useStore();
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const run = tools.runs[tool];

  useEffect(() => {
    void tools.loadStatus();
  }, [tools]);

  useEffect(() => {
    if (jobId) void run.open(jobId);
  }, [jobId, run]);

  // The URL names the job on screen, so a reload or a shared link shows it again.
  const current = run.job?.id;
  // A batch named by the URL (upload tools) has the page: the single job does not take the URL from it.
  const batchId = params.get('batch');
  useEffect(() => {
    if (current && current !== jobId && !batchId) setParams({ job: current }, { replace: true });
  }, [current, jobId, batchId, setParams]);

  /** Back to an empty tool: forget the job and drop it from the URL. */
  const startOver = () => {
    run.reset();
    setParams({}, { replace: true });
  };

  return { run, startOver };
}
