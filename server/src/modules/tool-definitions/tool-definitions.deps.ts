import type { CatalogDeps } from '../catalog';
import type { WorkersDeps } from '../workers';

/** The part of the app the tool definitions use: settings from the catalog, worker heartbeats. */
export type ToolDefinitionsDeps = CatalogDeps & WorkersDeps;
