import net from 'node:net';

/** Hosts a test may connect to: this machine only (Postgres, Redis, S3 servers and fakes the tests start). */
function isLocal(host: string | undefined): boolean {
  if (host === undefined || host === '' || host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  if (net.isIPv6(host)) return host === '::1' || host.startsWith('::ffff:127.');
  return host.endsWith('.localhost');
}

/**
 * Makes every outbound TCP connection to another machine fail at once with a clear error, so a test can
 * never depend on (or leak requests to) the internet: a real Stripe, SMTP server or model hub reached by
 * mistake shows up as a failure instead of a slow pass on one machine and a hang on another. Node's fetch,
 * the AWS SDK, node-redis and pg all connect through net.Socket#connect. Names other than localhost are
 * refused before any DNS lookup.
 */
export function blockOutboundNetwork(): void {
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = Array.isArray(first) ? first[0] : first;
    const host =
      typeof options === 'object' && options !== null
        ? (options as net.TcpNetConnectOpts).host
        : typeof args[1] === 'string'
          ? args[1]
          : undefined;
    const isPipe =
      typeof options === 'string' ||
      (typeof options === 'object' &&
        options !== null &&
        'path' in options &&
        Boolean((options as net.IpcNetConnectOpts).path));
    if (!isPipe && !isLocal(host)) {
      const err = Object.assign(new Error(`Outbound network is blocked in tests (tried ${host})`), {
        code: 'ENETUNREACH',
      });
      process.nextTick(() => this.destroy(err));
      return this;
    }
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
}
