// `npx tsx models/quantize/calibrate-cli.ts <int8 id>...`: runs the calibration pass of each int8 recipe on its
// prepared fp32 model (run `npm run models` first) and writes models/quantize/calibration/<id>.json, which is
// committed; `npm run models` then builds the int8 file from it. Rerun after changing a recipe's calibration.
import { readFileSync, writeFileSync } from 'node:fs';
import { modelPath } from '../manifest';
import { calibrateRecipe } from './build';
import { calibrationFile, INT8_RECIPES, int8Recipe } from './recipes';

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  for (const id of ids.length > 0 ? ids : INT8_RECIPES.map((r) => r.id)) {
    const recipe = int8Recipe(id);
    if (!recipe) throw new Error(`no int8 recipe ${id}`);
    const started = Date.now();
    const table = await calibrateRecipe(id, readFileSync(modelPath(recipe.base)), (line) =>
      console.log(`${id}: ${line}`),
    );
    writeFileSync(calibrationFile(id), `${JSON.stringify(table, null, 2)}\n`);
    console.log(
      `${id}: wrote ${calibrationFile(id)} (${Object.keys(table.ranges).length} ranges, ${Date.now() - started} ms)`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
