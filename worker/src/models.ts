import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_MODEL, MODELS, type ModelEntry, type ModelTask } from '../../models/manifest';

/** Reads the models manifest (models/manifest.ts) for the worker: which prepared file serves which task. */

export function modelsForTask(task: ModelTask): ModelEntry[] {
  return (MODELS as readonly ModelEntry[]).filter((m) => m.task === task);
}

/** The manifest's default model for a task, else its first entry. */
export function defaultModel(task: ModelTask): ModelEntry | undefined {
  const id = DEFAULT_MODEL[task];
  return modelsForTask(task).find((m) => m.id === id) ?? modelsForTask(task)[0];
}

/** Absolute path of a model's prepared file in `modelsDir`, or null when `npm run models` has not made it. */
export function preparedModelFile(modelsDir: string, entry: ModelEntry): string | null {
  const file = path.join(modelsDir, entry.file);
  return fs.existsSync(file) ? file : null;
}

export type { ModelEntry, ModelTask };
