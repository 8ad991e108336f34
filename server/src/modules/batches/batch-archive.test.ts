import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Response } from 'express';
import { BATCH_MESSAGES } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { solidImage } from '../uploads/test-images';
import { UploadBudget, UploadSession } from '../uploads/upload-budget';
import { ARCHIVE_MESSAGES, extractArchive, listArchive } from './batch-archive';
import { makeZip, overlappingZip } from './batches.test-support';
import { UniqueNames } from './batch-zip';

const budget = new UploadBudget({
  diskBytes: 1024 * 1024 * 1024,
  perUser: 100,
  perKey: 8,
  minBytesPerSecond: 0,
  rateWindowMs: 30_000,
  tmpDir: path.join(os.tmpdir(), 'imagestudio-uploads-test'),
});

/** Lists and inflates a ZIP as a batch upload does; the images come back with their bytes. */
async function readArchive(zip: Buffer, session?: UploadSession) {
  const res = new EventEmitter() as unknown as Response;
  const own = session ?? (budget.open('archive-test', res, 0) as UploadSession);
  const file = await own.tempPath('.zip');
  fs.writeFileSync(file, zip);
  try {
    const { images, errors } = await extractArchive(await listArchive(file), own);
    return { images: images.map((i) => ({ ...i, bytes: fs.readFileSync(i.file) })), errors };
  } finally {
    if (!session) res.emit('close');
  }
}

async function refusal(zip: Buffer): Promise<AppError> {
  try {
    await readArchive(zip);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('the archive was accepted');
}

describe('readArchive', () => {
  it('returns the images with their base names, skipping folders and system files', async () => {
    const png = await solidImage('png');
    const jpg = await solidImage('jpeg');
    const zip = await makeZip([
      { name: 'shoes/shoe-01.png', data: png },
      { name: 'shoes/shoe-02.jpg', data: jpg, compress: true },
      { name: '__MACOSX/shoes/._shoe-01.png', data: Buffer.from('resource fork') },
      { name: 'shoes/.DS_Store', data: Buffer.from('finder') },
    ]);
    const { images, errors } = await readArchive(zip);
    expect(errors).toEqual({});
    expect(images.map((i) => [i.path, i.name])).toEqual([
      ['shoes/shoe-01.png', 'shoe-01.png'],
      ['shoes/shoe-02.jpg', 'shoe-02.jpg'],
    ]);
    expect(images[0]!.bytes.equals(png)).toBe(true);
    expect(images[1]!.bytes.equals(jpg)).toBe(true);
  });

  it('names each unsafe, nested or suspiciously compressed entry', async () => {
    const png = await solidImage('png');
    const inner = await makeZip([{ name: 'a.png', data: png }]);
    const zip = await makeZip(
      [
        { name: 'ok.png', data: png },
        { name: 'xx/evil.png', data: png },
        { name: 'Xabs.png', data: png },
        { name: 'more.zip', data: inner },
        { name: 'disguised.png', data: inner },
        { name: 'bomb.png', data: Buffer.alloc(5 * 1024 * 1024), compress: true },
      ],
      { 'xx/evil.png': '../evil.png', 'Xabs.png': '/abs.png' },
    );
    const { images, errors } = await readArchive(zip);
    expect(images.map((i) => i.name)).toEqual(['ok.png']);
    expect(errors).toEqual({
      '../evil.png': [BATCH_MESSAGES.entryUnsafePath],
      '/abs.png': [BATCH_MESSAGES.entryUnsafePath],
      'more.zip': [BATCH_MESSAGES.entryNested],
      'disguised.png': [BATCH_MESSAGES.entryNested],
      'bomb.png': [BATCH_MESSAGES.entryRatio],
    });
  });

  it('refuses the whole archive past the expanded-size limit, before inflating it', async () => {
    const chunk = Buffer.alloc(20 * 1024 * 1024 - 1, 7);
    // Each entry alone is within every per-entry limit except the ratio; together they pass 200 MB.
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `big-${i}.png`, data: chunk, compress: true }));
    const err = await refusal(await makeZip(entries));
    expect(err.status).toBe(422);
    expect(err.errors).toEqual({ archive: [BATCH_MESSAGES.archiveTooLarge] });
  });

  it('refuses entries that share their bytes, before inflating any of them', async () => {
    // 50 central-directory records over one 4 MB deflated block: every ratio and size looks fine (the issue's
    // 147 KB ZIP: ratio ~28, 200 MB in all).
    const block = Buffer.from(Array.from({ length: 4 * 1024 * 1024 }, () => (Math.random() < 0.05 ? 66 : 65)));
    const zip = await overlappingZip(50, block);
    expect(zip.length).toBeLessThan(300 * 1024);
    const err = await refusal(zip);
    expect(err.errors).toEqual({ archive: [ARCHIVE_MESSAGES.overlapping] });
  });

  it('counts every inflated byte against the upload: a full budget ends it with 503', async () => {
    const small = new UploadBudget({ ...budget.limits, diskBytes: 1024 * 1024 });
    const other = new EventEmitter() as unknown as Response;
    (small.open('someone-else', other, 0) as UploadSession).reserve(100 * 1024);
    const res = new EventEmitter() as unknown as Response;
    const session = small.open('archive-test', res, 0) as UploadSession;
    // One bit of entropy per byte: ~8x smaller deflated, far under the ratio limit, and 3 MB expanded.
    const data = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, () => (Math.random() < 0.5 ? 65 : 66)));
    const zip = await makeZip([{ name: 'a.png', data, compress: true }]);
    expect(zip.length).toBeLessThan(700 * 1024);
    const err = await readArchive(zip, session).catch((e: AppError) => e);
    expect((err as AppError).status).toBe(503);
    expect(session.heldBytes).toBeLessThanOrEqual(1024 * 1024);
    res.emit('close');
    other.emit('close');
    await new Promise((r) => setTimeout(r, 20));
    expect(small.reservedBytes).toBe(0);
  });

  it('refuses what is not a ZIP, an empty one, and one with too many images', async () => {
    expect((await refusal(Buffer.from('not a zip at all'))).errors).toEqual({
      archive: [BATCH_MESSAGES.archiveUnreadable],
    });
    expect((await refusal(await makeZip([]))).errors).toEqual({ archive: [BATCH_MESSAGES.archiveEmpty] });
    const png = await solidImage('png', 8, 8);
    const many = await makeZip(Array.from({ length: 51 }, (_, i) => ({ name: `i-${i}.png`, data: png })));
    expect((await refusal(many)).errors).toEqual({ archive: [BATCH_MESSAGES.tooManyFiles] });
  });
});

describe('UniqueNames', () => {
  it('numbers repeated names before the extension, ignoring case', () => {
    const names = new UniqueNames();
    expect(
      [
        'shoe-no-background.png',
        'shoe-no-background.png',
        'SHOE-no-background.png',
        'shoe-no-background-2.png',
        'README',
      ].map((n) => names.take(n)),
    ).toEqual([
      'shoe-no-background.png',
      'shoe-no-background-2.png',
      'SHOE-no-background-3.png',
      'shoe-no-background-2-2.png',
      'README',
    ]);
  });
});
