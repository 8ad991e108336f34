/**
 * `npm run examples`: makes the landing pages' before/after pairs with the product's own models (see
 * examples/make-examples.ts). Runs before every client build; does nothing once they exist, and only
 * warns when the models are not prepared yet.
 */
import path from 'node:path';
import { makeExamples } from '../examples/make-examples';

const ROOT = path.resolve(__dirname, '..', '..', '..');

makeExamples(
  path.join(ROOT, 'client', 'public', 'examples'),
  path.join(ROOT, 'client', 'public', 'examples', 'made'),
  path.join(ROOT, 'models', '.cache'),
)
  .then(({ made, skipped }) => {
    if (skipped) console.warn(`examples not made: ${skipped}`);
    else if (made.length > 0) console.log(`examples made: ${made.map((f) => path.basename(f)).join(', ')}`);
  })
  .catch((err: unknown) => {
    console.error(`examples not made: ${(err as Error).message}`);
    process.exitCode = 1;
  });
