import http from 'node:http';
import type { AddressInfo } from 'node:net';

// jest.node.cjs installs the guard for every Node test file; these tests check it is in force.
describe('outbound network in tests', () => {
  it('refuses a connection to another machine at once, naming the host', async () => {
    const started = Date.now();
    await expect(fetch('http://203.0.113.7:81/')).rejects.toMatchObject({
      cause: { message: expect.stringContaining('Outbound network is blocked in tests (tried 203.0.113.7)') },
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a public host name before any lookup', async () => {
    await expect(fetch('https://registry.example.com/')).rejects.toMatchObject({
      cause: { message: expect.stringContaining('registry.example.com') },
    });
  });

  it('lets tests reach servers on this machine', async () => {
    const server = http.createServer((_req, res) => res.end('local'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('local');
      expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('local');
    } finally {
      server.close();
    }
  });
});
