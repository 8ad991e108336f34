// Whether this CPU has integer dot-product instructions, which make onnxruntime's u8 x s8 convolutions fast and
// exact. Without them (plain AVX2) onnxruntime's x86 kernels multiply-add pairs into 16 bits with saturation, so
// an int8 model is both slower and slightly different there: the worker does not pick int8 on such a CPU, and
// `npm run models` does not judge the int8 files' quality on it (their bytes are still checked by hash).
import fs from 'node:fs';

/** The CPU flags (Linux /proc/cpuinfo) of VNNI and AMX. */
const INT8_FLAGS = ['avx512_vnni', 'avx_vnni', 'amx_int8'];

/** True when the CPU has VNNI or AMX integer dot products (false where /proc/cpuinfo cannot be read). */
export function cpuHasInt8Dot(cpuinfo?: string): boolean {
  let text = cpuinfo;
  if (text === undefined) {
    try {
      text = fs.readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      return false;
    }
  }
  const flags = new Set((text.match(/^flags\s*:(.*)$/m)?.[1] ?? '').trim().split(/\s+/));
  return INT8_FLAGS.some((f) => flags.has(f));
}
