import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readModelSignature } from './model-signature';
import { buildTinyGenerationModel } from './test-support/tiny-model';

describe('readModelSignature', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gen-sig-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads names, dtypes and fixed or dynamic dims of graph inputs and outputs', async () => {
    await buildTinyGenerationModel(path.join(dir, 'dyn'));
    const unet = await readModelSignature(path.join(dir, 'dyn', 'unet', 'model.onnx'));
    expect(unet.inputs).toEqual([
      { name: 'sample', type: 'float32', shape: ['batch', 4, 'height', 'width'] },
      { name: 'timestep', type: 'int64', shape: ['steps'] },
      { name: 'encoder_hidden_states', type: 'float32', shape: ['batch', 77, 16] },
    ]);
    expect(unet.outputs).toEqual([{ name: 'out_sample', type: 'float32', shape: ['batch', 4, 'height', 'width'] }]);

    await buildTinyGenerationModel(path.join(dir, 'fixed'), { batch: 2, spatial: [8, 6], timestepType: 'float32' });
    const fixed = await readModelSignature(path.join(dir, 'fixed', 'unet', 'model.onnx'));
    expect(fixed.inputs[0]).toEqual({ name: 'sample', type: 'float32', shape: [2, 4, 8, 6] });
    expect(fixed.inputs[1]).toEqual({ name: 'timestep', type: 'float32', shape: [1] });
    const text = await readModelSignature(path.join(dir, 'fixed', 'text_encoder', 'model.onnx'));
    expect(text.inputs).toEqual([{ name: 'input_ids', type: 'int32', shape: [2, 77] }]);
    expect(text.outputs.map((o) => o.name)).toEqual(['last_hidden_state', 'pooler_output']);
  });

  it('says which file it could not read', async () => {
    const bad = path.join(dir, 'bad.onnx');
    await fs.writeFile(bad, Buffer.from([0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    await expect(readModelSignature(bad)).rejects.toThrow(/bad\.onnx/);
  });
});
