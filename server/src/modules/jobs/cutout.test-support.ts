import fs from 'node:fs';
import sharp from 'sharp';
import type supertest from 'supertest';
import type { JobView } from '@imagestudio/contracts';
import { fromProjectRoot } from '@imagestudio/runtime';
import { waitForStatus } from './jobs.test-support';

/** Test support for the tests that re-compose a stored cut-out (not a test file itself). */

const COFFEE = fs.readFileSync(fromProjectRoot('worker/src/test-support/fixtures/coffee-300.png'));
const COFFEE_MATTE = fs.readFileSync(fromProjectRoot('worker/src/test-support/fixtures/coffee-300-mask.png'));

/**
 * The 300x200 coffee photo with its real ISNet matte joined as alpha: the test worker takes an upload's own alpha as
 * its matte, so uploading this gives a job whose stored cut-out is the real one.
 */
export async function coffeeCutout(): Promise<Buffer> {
  const matte = await sharp(COFFEE_MATTE).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const { width, height } = matte.info;
  return sharp(COFFEE)
    .joinChannel(matte.data, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/** A finished background removal of `cutout` by the agent's user, ready to re-compose. */
export async function cutoutJob(agent: supertest.Agent, cutout: Buffer): Promise<JobView> {
  const res = await agent.post('/api/tools/remove-background').attach('image', cutout, 'coffee.png').expect(202);
  return waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded'], 20_000);
}
