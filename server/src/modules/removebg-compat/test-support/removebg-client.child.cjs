'use strict';
/**
 * Runs the published npm `remove.bg` client (unmodified) in a process of its own, for removebg-client.test.ts.
 * The client's URL is hard-coded to https://api.remove.bg, so inside this process only: the name resolves to
 * loopback, port 443 is the test's TLS server's port, and the test's throw-away CA is trusted through
 * NODE_EXTRA_CA_CERTS (set by the parent). Prints one JSON line with each call's outcome.
 *
 * argv[2]: JSON {port, key, badKey, file, base64, url, outputFile}
 */
const dns = require('node:dns');
const https = require('node:https');

const HOST = 'api.remove.bg';
const options = JSON.parse(process.argv[2]);

const lookup = dns.lookup;
dns.lookup = function patchedLookup(hostname, opts, callback) {
  if (hostname !== HOST) return lookup.apply(this, arguments);
  const cb = typeof opts === 'function' ? opts : callback;
  const all = typeof opts === 'object' && opts !== null && opts.all;
  if (all) return process.nextTick(cb, null, [{ address: '127.0.0.1', family: 4 }]);
  return process.nextTick(cb, null, '127.0.0.1', 4);
};
const createConnection = https.Agent.prototype.createConnection;
https.Agent.prototype.createConnection = function patchedConnection(connectOptions, callback) {
  const target =
    connectOptions.host === HOST && Number(connectOptions.port) === 443
      ? { ...connectOptions, port: options.port }
      : connectOptions;
  return createConnection.call(this, target, callback);
};

const removeBg = require('remove.bg');

async function outcome(run) {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? { message: err.message } : err };
  }
}

(async () => {
  const results = {
    file: await outcome(() =>
      removeBg.removeBackgroundFromImageFile({
        path: options.file,
        apiKey: options.key,
        size: 'regular',
        type: 'product',
        crop: true,
        outputFile: options.outputFile,
      }),
    ),
    base64: await outcome(() =>
      removeBg.removeBackgroundFromImageBase64({ base64img: options.base64, apiKey: options.key, size: 'full' }),
    ),
    url: await outcome(() =>
      removeBg.removeBackgroundFromImageUrl({ url: options.url, apiKey: options.key, bg_color: '81d4fa' }),
    ),
    badKey: await outcome(() =>
      removeBg.removeBackgroundFromImageBase64({ base64img: options.base64, apiKey: options.badKey }),
    ),
  };
  // The image bytes are left out: the parent checks their facts and the file the client wrote.
  for (const r of Object.values(results)) if (r.ok) r.value = { ...r.value, base64img: r.value.base64img.length };
  process.stdout.write(`${JSON.stringify(results)}\n`);
})();
