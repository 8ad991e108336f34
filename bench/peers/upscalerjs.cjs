// Peer benchmark: UpscalerJS + @upscalerjs/esrgan-slim on TF.js's wasm backend, end to end (decode, upscale,
// PNG encode). Usage: node upscalerjs.cjs <input> <output.png> <scale> <runs> [untimed
// warm-up runs, default 0]. Prints one JSON line.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const here = (p) => path.join(__dirname, 'node_modules', p);
const tf = require(here('@tensorflow/tfjs'));
const wasm = require(here('@tensorflow/tfjs-backend-wasm'));
// The package's "." export is ESM with extensionless imports; its UMD build loads in Node as is.
const Upscaler = require(here('upscaler/dist/browser/umd/upscaler.js'));
const sharp = require(here('sharp'));

/** TF.js loads layers models over fetch: serve the package's model files on loopback. */
function serveModels(root) {
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(root) || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const [input, output, scaleArg, runsArg, warmupsArg] = process.argv.slice(2);
  const scale = Number(scaleArg);
  const runs = Number(runsArg || 3);
  const warmups = Number(warmupsArg || 0);
  wasm.setWasmPaths(here('@tensorflow/tfjs-backend-wasm/dist/'));
  await tf.setBackend('wasm');
  const server = await serveModels(here('@upscalerjs/esrgan-slim'));
  const definition = require(here(`@upscalerjs/esrgan-slim/dist/cjs/models/esrgan-slim/src/x${scale}/cjs.js`));
  const upscaler = new Upscaler({
    model: { ...definition, path: `http://127.0.0.1:${server.address().port}/models/x${scale}/model.json` },
  });
  await upscaler.getModel();
  const once = async () => {
    const t = performance.now();
    const { data, info } = await sharp(fs.readFileSync(input))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tensor = tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
    const out = await upscaler.execute(tensor, { output: 'tensor' });
    // Buffer.from(Int32Array) copies element by element: 0..255 values become bytes.
    const rgb = Buffer.from(await out.clipByValue(0, 255).round().cast('int32').data());
    const [h, w] = out.shape;
    tensor.dispose();
    out.dispose();
    const png = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
      .png({ compressionLevel: 6 })
      .toBuffer();
    return { ms: performance.now() - t, png, rgb, w, h };
  };
  const times = [];
  let last;
  for (let i = 0; i < warmups; i++) await once();
  for (let i = 0; i < runs; i++) {
    last = await once();
    times.push(last.ms);
  }
  fs.writeFileSync(output, last.png);
  fs.writeFileSync(`${output}.rgb`, last.rgb);
  server.close();
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      tool: 'upscalerjs',
      backend: tf.getBackend(),
      ms: times[Math.floor(times.length / 2)],
      times,
      width: last.w,
      height: last.h,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
