import { DeliveryPool, destinationOf } from './delivery-pool';

const limits = { inFlight: 6, perHost: 2, perUser: 3, timeoutsBeforePause: 3 } as const;

describe('the webhook delivery pool', () => {
  it('holds at most perHost deliveries per destination and perUser per user, and frees a slot at once', () => {
    const pool = new DeliveryPool(() => 1000, limits);
    expect(pool.tryStart('slow.example', 'u1')).toBe(true);
    expect(pool.tryStart('slow.example', 'u2')).toBe(true);
    expect(pool.tryStart('slow.example', 'u3')).toBe(false);
    expect(pool.blocked()).toEqual({ hosts: ['slow.example'], users: [] });
    expect(pool.tryStart('a.example', 'u1')).toBe(true);
    expect(pool.tryStart('b.example', 'u1')).toBe(true);
    expect(pool.tryStart('c.example', 'u1')).toBe(false);
    expect(pool.blocked()).toEqual({ hosts: ['slow.example'], users: ['u1'] });
    expect(pool.tryStart('c.example', 'u4')).toBe(true);
    expect(pool.tryStart('d.example', 'u5')).toBe(true);
    expect(pool.free).toBe(0);
    expect(pool.tryStart('e.example', 'u6')).toBe(false);
    pool.finish('slow.example', 'u1', 'failed');
    expect(pool.free).toBe(1);
    expect(pool.blocked()).toEqual({ hosts: [], users: [] });
    expect(pool.tryStart('slow.example', 'u6')).toBe(true);
  });

  it('pauses a destination after 3 timeouts in a row, longer each time, until it answers', () => {
    let now = 0;
    const pool = new DeliveryPool(
      (streak) => 1000 * 2 ** (streak - 3),
      limits,
      () => now,
    );
    const timeout = () => {
      expect(pool.tryStart('h', 'u')).toBe(true);
      return pool.finish('h', 'u', 'timeout');
    };
    expect(timeout()).toBeUndefined();
    expect(timeout()).toBeUndefined();
    expect(timeout()).toBe(1000);
    expect(pool.pausedUntil('h')).toBe(1000);
    expect(pool.blocked().hosts).toEqual(['h']);
    expect(pool.tryStart('h', 'u')).toBe(false);
    expect(pool.tryStart('other', 'u')).toBe(true);
    pool.finish('other', 'u', 'delivered');
    now = 1000;
    expect(pool.blocked().hosts).toEqual([]);
    expect(timeout()).toBe(2000);
    now = 3000;
    expect(pool.tryStart('h', 'u')).toBe(true);
    expect(pool.finish('h', 'u', 'failed')).toBeUndefined();
    expect(pool.timeoutStreak('h')).toBe(0);
    expect(timeout()).toBeUndefined();
  });

  it('names a destination by host and port', () => {
    expect(destinationOf('https://Hooks.Example.com/x?y')).toBe('hooks.example.com');
    expect(destinationOf('http://127.0.0.1:8080/a')).toBe('127.0.0.1:8080');
    expect(destinationOf('http://[::1]:9/a')).toBe('[::1]:9');
  });
});
