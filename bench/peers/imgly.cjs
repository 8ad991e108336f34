// Peer benchmark: @imgly/background-removal-node removeBackground(), end to end (decode, ISNet, PNG encode).
// Usage: node imgly.cjs <input.jpg|png> <output.png> <small|medium> <runs> [untimed warm-up runs, default 1].
// Prints one JSON line.
const fs = require('node:fs');
const path = require('node:path');
const pkg = path.join(__dirname, 'node_modules', '@imgly/background-removal-node');
const { removeBackground } = require(pkg);

async function main() {
  const [input, output, model, runsArg, warmupsArg] = process.argv.slice(2);
  const runs = Number(runsArg || 3);
  // The first call loads the model; like our worker (models loaded and warmed up at start) it is not timed.
  const warmups = Math.max(1, Number(warmupsArg || 1));
  const bytes = fs.readFileSync(input);
  // It decodes by the blob's type: PNG inputs (bench/sections/matte.ts) say so.
  const type = input.endsWith('.png') ? 'image/png' : 'image/jpeg';
  // Its default publicPath is relative to the working directory; point it at the installed package.
  const config = { model, publicPath: `file://${pkg}/dist/`, output: { format: 'image/png' } };
  const times = [];
  let png;
  for (let i = 0; i < warmups + runs; i++) {
    const t = performance.now();
    const blob = await removeBackground(new Blob([bytes], { type }), config);
    png = Buffer.from(await blob.arrayBuffer());
    if (i >= warmups) times.push(performance.now() - t);
  }
  fs.writeFileSync(output, png);
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      tool: 'imgly',
      model,
      ms: times[Math.floor(times.length / 2)],
      times,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
