// `npm run models [id...]`: prepares the manifest models into models/.cache (or MODELS_DIR). Idempotent and
// offline once cached; stops with a clear message and exit code 1 on any hash mismatch.
import { modelsDir } from './manifest';
import { prepareModels } from './prepare/run';

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  const started = Date.now();
  console.log(`models: preparing into ${modelsDir()}`);
  const results = await prepareModels({ ids: ids.length > 0 ? ids : undefined, log: (line) => console.log(line) });
  const built = results.filter((r) => r.action === 'built').length;
  console.log(
    `models: ${results.length} ready (${built} built, ${results.length - built} already cached) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(`models: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
