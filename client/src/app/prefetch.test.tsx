import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { paths } from '../config/paths';
import { lazyPage } from './lazy-page';
import { usePrefetchOnIntent } from './prefetch';

function renderAt(path: string, table: Record<string, () => Promise<unknown>>) {
  function Page() {
    usePrefetchOnIntent(table);
    return (
      <>
        <Link to={paths.services.upscale}>Upscale</Link>
        <Link to={paths.pricing}>Pricing</Link>
      </>
    );
  }
  const router = createMemoryRouter([{ path: '*', element: <Page /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

describe('prefetching page chunks', () => {
  it('fetches a page chunk when a link to it is pointed at or focused, and not for other links', () => {
    const upscale = jest.fn(() => Promise.resolve());
    renderAt('/', { [paths.services.upscale]: upscale });
    fireEvent.pointerOver(screen.getByRole('link', { name: 'Pricing' }));
    expect(upscale).not.toHaveBeenCalled();
    fireEvent.pointerOver(screen.getByRole('link', { name: 'Upscale' }));
    fireEvent.focusIn(screen.getByRole('link', { name: 'Upscale' }));
    expect(upscale).toHaveBeenCalledTimes(2);
  });

  it("fetches a tool's chunk on that tool's landing page", () => {
    const upscale = jest.fn(() => Promise.resolve());
    const generate = jest.fn(() => Promise.resolve());
    renderAt(paths.landing.upscale, { [paths.services.upscale]: upscale, [paths.services.generateImage]: generate });
    expect(upscale).toHaveBeenCalledTimes(1);
    expect(generate).not.toHaveBeenCalled();
  });
});

describe('lazyPage', () => {
  it('loads its chunk once however often it is preloaded, and tries again after a failed load', async () => {
    const load = jest
      .fn<Promise<() => null>, []>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(() => null);
    const Page = lazyPage(load);
    await expect(Page.preload()).rejects.toThrow('offline');
    await Page.preload();
    await Page.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
