import type { AppContext } from '../../context';
import type { ToolDefinitionsDeps } from '../tool-definitions';
import type { AppServices } from '../../services';

/** The part of the app the jobs services use (routes pass the whole context), with what the modules it calls need. */
export type JobsDeps = Pick<AppContext, 'config' | 'db' | 'logger' | 'queue' | 'queueRedis' | 'redis' | 'storage'> & {
  services: Pick<AppServices, 'jobMetrics' | 'jobUpdates' | 'recentRuns'>;
} & ToolDefinitionsDeps;
