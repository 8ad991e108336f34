import { Component, type ReactNode } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { paths } from '../config/paths';
import { TOOLS } from '../config/tools';
import { StoreProvider } from '../stores';
import { FakeApi, makeStore } from '../test/fake-api';
import { lazyPage } from './lazy-page';
import { usePrefetchOnIntent } from './prefetch';

function renderAt(path: string, table: Record<string, () => Promise<unknown>>) {
  function Page() {
    usePrefetchOnIntent(table);
    return (
      <>
        <Link to={TOOLS.upscale.path}>Upscale</Link>
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
    renderAt('/', { [TOOLS.upscale.path]: upscale });
    fireEvent.pointerOver(screen.getByRole('link', { name: 'Pricing' }));
    expect(upscale).not.toHaveBeenCalled();
    fireEvent.pointerOver(screen.getByRole('link', { name: 'Upscale' }));
    fireEvent.focusIn(screen.getByRole('link', { name: 'Upscale' }));
    expect(upscale).toHaveBeenCalledTimes(2);
  });

  it("fetches a tool's chunk on that tool's landing page", () => {
    const upscale = jest.fn(() => Promise.resolve());
    const generate = jest.fn(() => Promise.resolve());
    renderAt(TOOLS.upscale.landingPath, { [TOOLS.upscale.path]: upscale, [TOOLS.generate.path]: generate });
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

/** Shows the message of what a child threw, as the app's error boundary would show something. */
class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
  }
}

describe('a lazy page on screen', () => {
  function deferred<T>() {
    let resolve!: (value: T) => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }
  const inStore = (node: ReactNode) => <StoreProvider store={makeStore(new FakeApi()).store}>{node}</StoreProvider>;

  it('shows the spinner until its chunk arrives, then the page; a second visit shows the page at once', async () => {
    const chunk = deferred<(props: { name: string }) => ReactNode>();
    const Page = lazyPage(() => chunk.promise);
    const first = render(inStore(<Page name="Ada" />));
    expect(screen.getByRole('status')).toBeTruthy();
    await act(async () => chunk.resolve(({ name }) => <h1>Hello {name}</h1>));
    expect(screen.getByRole('heading', { name: 'Hello Ada' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    first.unmount();
    render(inStore(<Page name="Grace" />));
    expect(screen.getByRole('heading', { name: 'Hello Grace' })).toBeTruthy();
  });

  it('hands a chunk that cannot be loaded to the error boundary', async () => {
    const chunk = deferred<() => ReactNode>();
    const Page = lazyPage(() => chunk.promise);
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      inStore(
        <Boundary>
          <Page />
        </Boundary>,
      ),
    );
    await act(async () => chunk.reject(new Error('offline')));
    expect(screen.getByText('failed: offline')).toBeTruthy();
    quiet.mockRestore();
  });
});
