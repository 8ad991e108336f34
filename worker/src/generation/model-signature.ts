import fs from 'node:fs/promises';

/** Element types of ONNX tensors this pipeline feeds or reads (onnx.TensorProto.DataType). */
const ELEM_TYPES: Record<number, string> = { 1: 'float32', 6: 'int32', 7: 'int64', 10: 'float16', 11: 'float64' };

export interface ValueSignature {
  name: string;
  /** 'float32', 'float16', 'int32', 'int64', ... or 'unknown'. */
  type: string;
  /** Fixed sizes as numbers, dynamic dimensions as their symbolic names ('' when unnamed). */
  shape: (number | string)[];
}

export interface ModelSignature {
  inputs: ValueSignature[];
  outputs: ValueSignature[];
}

/**
 * Reads a model's graph inputs and outputs (names, element types, fixed or dynamic dimensions) from the ONNX
 * file's protobuf framing, skipping nodes and weights without loading them: a multi-gigabyte UNet is read
 * a few kilobytes at a time. The pipeline needs these to choose dtypes (int64 or float timesteps, int32 or
 * int64 token ids, fp16 or fp32 latents) and whether a model takes a batch or any spatial size.
 */
export async function readModelSignature(modelPath: string): Promise<ModelSignature> {
  const file = await fs.open(modelPath, 'r');
  try {
    const cursor = new FileCursor(file);
    const size = (await file.stat()).size;
    while (cursor.pos < size) {
      const { field, wire } = splitTag(await cursor.varint());
      if (field === 7 && wire === 2) {
        const length = await cursor.varint();
        return await readGraph(cursor, cursor.pos + length);
      }
      await cursor.skipValue(wire);
    }
    throw new Error('no graph in model');
  } catch (err) {
    throw new Error(`cannot read the inputs of ${modelPath}: ${(err as Error).message}`, { cause: err });
  } finally {
    await file.close();
  }
}

async function readGraph(cursor: FileCursor, end: number): Promise<ModelSignature> {
  const signature: ModelSignature = { inputs: [], outputs: [] };
  while (cursor.pos < end) {
    const { field, wire } = splitTag(await cursor.varint());
    if ((field === 11 || field === 12) && wire === 2) {
      const info = parseValueInfo(await cursor.bytes(await cursor.varint()));
      (field === 11 ? signature.inputs : signature.outputs).push(info);
    } else await cursor.skipValue(wire);
  }
  return signature;
}

function parseValueInfo(buf: Buffer): ValueSignature {
  const info: ValueSignature = { name: '', type: 'unknown', shape: [] };
  forEachField(buf, (field, value) => {
    if (field === 1 && Buffer.isBuffer(value)) info.name = value.toString('utf8');
    if (field !== 2 || !Buffer.isBuffer(value)) return;
    forEachField(value, (typeField, tensorType) => {
      if (typeField !== 1 || !Buffer.isBuffer(tensorType)) return;
      forEachField(tensorType, (f, v) => {
        if (f === 1 && typeof v === 'number') info.type = ELEM_TYPES[v] ?? 'unknown';
        if (f !== 2 || !Buffer.isBuffer(v)) return;
        forEachField(v, (shapeField, dim) => {
          if (shapeField !== 1 || !Buffer.isBuffer(dim)) return;
          let d: number | string = '';
          forEachField(dim, (df, dv) => {
            if (df === 1 && typeof dv === 'number') d = dv;
            if (df === 2 && Buffer.isBuffer(dv)) d = dv.toString('utf8');
          });
          info.shape.push(d);
        });
      });
    });
  });
  return info;
}

function splitTag(tag: number): { field: number; wire: number } {
  return { field: Math.floor(tag / 8), wire: tag % 8 };
}

/** Calls back with each field of a small in-memory message: varints as numbers, length-delimited as Buffers. */
function forEachField(buf: Buffer, visit: (field: number, value: number | Buffer) => void): void {
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      const byte = buf[pos++];
      if (byte === undefined) throw new Error('truncated message');
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
  };
  while (pos < buf.length) {
    const { field, wire } = splitTag(varint());
    if (wire === 0) visit(field, varint());
    else if (wire === 2) {
      const len = varint();
      visit(field, buf.subarray(pos, pos + len));
      pos += len;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

/** Sequential reads over a file through a 64 KiB window; skips are seeks. */
class FileCursor {
  pos = 0;
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(private readonly file: fs.FileHandle) {}

  async byte(): Promise<number> {
    const offset = this.pos - this.windowStart;
    if (offset < 0 || offset >= this.window.length) await this.fill();
    const value = this.window[this.pos - this.windowStart];
    if (value === undefined) throw new Error('unexpected end of file');
    this.pos += 1;
    return value;
  }

  async varint(): Promise<number> {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = await this.byte();
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
  }

  async bytes(length: number): Promise<Buffer> {
    const out = Buffer.alloc(length);
    const { bytesRead } = await this.file.read(out, 0, length, this.pos);
    if (bytesRead !== length) throw new Error('unexpected end of file');
    this.pos += length;
    return out;
  }

  async skipValue(wire: number): Promise<void> {
    if (wire === 0) await this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      // Read the length first: `this.pos += await ...` would add it to the position from before the length.
      const length = await this.varint();
      this.pos += length;
    } else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }

  private async fill(): Promise<void> {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await this.file.read(buf, 0, buf.length, this.pos);
    this.window = buf.subarray(0, bytesRead);
    this.windowStart = this.pos;
  }
}
