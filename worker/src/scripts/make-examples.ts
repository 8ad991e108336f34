/**
 * `npm run examples`: makes the home and landing pages' before/after pairs again with the worker's current
 * pipelines (worker/src/examples/make-examples.ts) into client/public/examples/made/, to be committed.
 * `--check` (run before every client build) only refuses stale ones, without the models: a photo or a model
 * changed since they were made, or a file missing. make-examples.test.ts also catches a change in the code.
 */
import path from 'node:path';
import { makeExamples, staleExamples } from '../examples/make-examples';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PHOTOS = path.join(ROOT, 'worker', 'src', 'test-support', 'fixtures');
const OUT = path.join(ROOT, 'client', 'public', 'examples', 'made');

if (process.argv.includes('--check')) {
  const problems = staleExamples(PHOTOS, OUT);
  if (problems.length > 0) {
    console.error(`the examples are stale (run npm run examples and commit them):\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
} else {
  makeExamples(PHOTOS, OUT, path.join(ROOT, 'models', '.cache'), { log: (line) => console.log(line) })
    .then((manifest) => {
      if (!manifest) {
        console.error('examples not made: the models are not prepared yet (npm run models)');
        process.exitCode = 1;
      } else console.log(`examples made: ${Object.keys(manifest.files).join(', ')}`);
    })
    .catch((err: unknown) => {
      console.error(`examples not made: ${(err as Error).message}`);
      process.exitCode = 1;
    });
}
