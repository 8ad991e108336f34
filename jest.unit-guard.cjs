// Loaded before every unit-tier test (jest.unit.cjs): a connection to Postgres, Redis or S3 fails at once with
// a message that names the tier, instead of reaching a server that happens to run on this machine.
const net = require('node:net');

/** The usual ports of the services (Postgres, Redis, the embedded S3 server) and the closed port jest.unit.cjs sets. */
const SERVICE_PORTS = new Set([1, 5432, 6379, 4568, 9000]);

function portOf(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null) return Number(first.port);
  return Number(first);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function unitTierConnect(...args) {
  const port = portOf(args);
  if (SERVICE_PORTS.has(port)) {
    const err = Object.assign(
      new Error(`Unit tests reach no service (tried port ${port}); a test that needs one is an integration test`),
      { code: 'ECONNREFUSED' },
    );
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return connect.apply(this, args);
};
