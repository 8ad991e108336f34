import { RootStore } from './root-store';

// This file does not load signed-in-stores.ts up front (the test helpers do), like the home page's bundle.
describe('signed-in stores', () => {
  it('are created on first read once their code has loaded, and are the same store ever after', async () => {
    const root = new RootStore();
    // The stores every page needs exist from the start.
    expect(root.tools.available('generate')).toBeNull();
    expect(() => root.topUp).toThrow(/signed-in-stores/);
    expect(() => root.tools.runs).toThrow(/signed-in-stores/);
    expect(() => root.tools.batches).toThrow(/signed-in-stores/);
    root.tools.resetAll();

    await import('./signed-in-stores');
    const topUp = root.topUp;
    expect(root.topUp).toBe(topUp);
    expect(root.checkout).toBe(root.checkout);
    expect(root.tokenPricing).toBe(root.tokenPricing);
    expect(root.jobLists.history).toBe(root.jobLists.history);
    expect(root.tools.runs.upscale.tool).toBe('upscale');
    expect(root.tools.runs).toBe(root.tools.runs);
    expect(root.tools.batches.upscale).toBe(root.tools.batches.upscale);
    expect(new RootStore().topUp).not.toBe(topUp);
  });
});
