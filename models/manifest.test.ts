// The manifest describes the prepared files truthfully: onnxruntime loads each one with the recorded input and
// output names and shapes, and upscalers produce the recorded scale on a dynamic size.
import * as ort from 'onnxruntime-node';
import { getModel, MODELS, modelPath, modelsDir } from './manifest';
import { requirePrepared } from './testing/cache';
import { createSession } from './testing/ort';

describe('manifest', () => {
  it('has unique ids and files, pinned sources and licences', () => {
    expect(new Set(MODELS.map((m) => m.id)).size).toBe(MODELS.length);
    expect(new Set(MODELS.map((m) => m.file)).size).toBe(MODELS.length);
    for (const m of MODELS) {
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.source.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(m.licence.weights).not.toBe('');
    }
    expect(() => getModel('nope')).toThrow('unknown model "nope"');
  });

  it('resolves files in MODELS_DIR when set, else models/.cache', () => {
    const saved = process.env.MODELS_DIR;
    try {
      process.env.MODELS_DIR = '/srv/models';
      expect(modelPath('esrgan-slim-x2')).toBe('/srv/models/esrgan-slim-x2.onnx');
      delete process.env.MODELS_DIR;
      expect(modelsDir()).toBe(`${__dirname}/.cache`);
    } finally {
      if (saved === undefined) delete process.env.MODELS_DIR;
      else process.env.MODELS_DIR = saved;
    }
  });

  it.each(MODELS.map((m) => m.id))('%s loads in onnxruntime with the recorded tensors', async (id) => {
    const { entry, path } = requirePrepared(id);
    const session = await createSession(path);
    try {
      expect(session.inputNames).toEqual(entry.inputs.map((i) => i.name));
      // Some graphs have extra outputs (ISNet's side outputs); the recorded ones must exist with their shapes.
      const meta = new Map(session.outputMetadata.map((m) => [m.name, m]));
      for (const spec of entry.outputs) {
        const m = meta.get(spec.name);
        expect(m?.isTensor && m.type).toBe('float32');
        if (m?.isTensor && entry.task === 'background-removal') expect(m.shape).toEqual(spec.shape);
      }
      const input = session.inputMetadata[0];
      if (input?.isTensor && entry.task === 'background-removal') expect(input.shape).toEqual(entry.inputs[0]?.shape);
      if (entry.preprocessing.kind === 'super-resolution') {
        const { scale, inputMax } = entry.preprocessing;
        const x = new ort.Tensor('float32', new Float32Array(3 * 6 * 10).fill(inputMax / 2), [1, 3, 6, 10]);
        const out = (await session.run({ [entry.inputs[0]?.name as string]: x }))[
          entry.outputs[0]?.name as string
        ] as ort.Tensor;
        expect(out.dims).toEqual([1, 3, 6 * scale, 10 * scale]);
      }
    } finally {
      await session.release();
    }
  });
});
