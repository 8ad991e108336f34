import { Worker } from 'node:worker_threads';

/**
 * HEVC-coded HEIF (HEIC, what phones save) through libheif compiled to WebAssembly (npm `libheif-js`, its
 * documented HeifDecoder API): sharp's prebuilt libvips reads HEIF containers but has no HEVC decoder (the codec
 * is patent-encumbered), so it can report a HEIC's size and profile but not its pixels. libheif applies the
 * container's rotation and mirroring (irot/imir) itself, so the pixels come out upright; HEIF has no EXIF
 * orientation to apply.
 *
 * Each decode runs in a thread of its own: the WebAssembly decoder is synchronous and takes about a second on a
 * 12 MP photo, which on the main thread would stall BullMQ's lock renewals in the worker and every request in
 * the API (which decodes a HEIC to make its browser preview); and the WebAssembly memory it grows to (a few
 * hundred MB for a large photo) goes away with the thread.
 */

export interface HeicPixels {
  /** 8-bit RGBA, interleaved, upright. */
  data: Buffer;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** Why a HEIC could not be decoded (the caller turns it into the user's message). */
export class HeicDecodeError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** The bundle carries its .wasm inline; libheif-js/wasm would look for the file relative to the process's cwd. */
const LIBHEIF_MODULE = require.resolve('libheif-js/wasm-bundle');

/** The thread: decode the primary image, check its size before any pixel, post the RGBA back (transferred). */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { module, bytes, maxPixels } = workerData;
const fail = (message, tooLarge = false) => parentPort.postMessage({ ok: false, message, tooLarge });
const libheif = require(module);
const decoder = new libheif.HeifDecoder();
const images = decoder.decode(new Uint8Array(bytes));
const image = images.find((i) => i.is_primary()) || images[0];
if (!image) fail('no image in the HEIF container');
else {
  const width = image.get_width();
  const height = image.get_height();
  if (!(width > 0 && height > 0)) fail('the HEIF image has no size');
  else if (width * height > maxPixels) fail(width + 'x' + height + ' is over the pixel limit', true);
  else {
    const target = { data: new Uint8ClampedArray(width * height * 4), width, height };
    image.display(target, (decoded) => {
      if (!decoded) return fail('libheif could not decode the image data');
      const data = decoded.data.buffer;
      parentPort.postMessage({ ok: true, data, width, height, hasAlpha: image.has_alpha_channel() }, [data]);
    });
  }
}
`;

type ThreadReply =
  | { ok: true; data: ArrayBuffer; width: number; height: number; hasAlpha: boolean }
  | { ok: false; message: string; tooLarge: boolean };

/**
 * Decodes the primary image of a HEIC to RGBA. The size is checked against `maxPixels` from the container before
 * any pixel is decoded, so a bomb costs nothing.
 */
export async function decodeHeic(bytes: Buffer, maxPixels: number): Promise<HeicPixels> {
  const copy = new Uint8Array(bytes).buffer; // the thread gets its own copy of the file, transferred
  const thread = new Worker(THREAD, {
    eval: true,
    workerData: { module: LIBHEIF_MODULE, bytes: copy, maxPixels },
    transferList: [copy],
    stdout: true, // libheif-js logs its failures with console.log: kept out of the worker's JSON log
  });
  try {
    const reply = await new Promise<ThreadReply>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new HeicDecodeError(`the HEIC decoder ended (exit code ${code})`)));
    });
    if (!reply.ok) throw new HeicDecodeError(reply.message, reply.tooLarge);
    return { data: Buffer.from(reply.data), width: reply.width, height: reply.height, hasAlpha: reply.hasAlpha };
  } finally {
    await thread.terminate();
  }
}
