import { toolCallQuerySchema } from './api-keys';

describe('the wait parameter of tool calls', () => {
  it.each([
    [undefined, 0],
    ['0', 0],
    ['7', 7],
    ['60', 60],
  ])('reads %j as %d seconds', (wait, seconds) => {
    expect(toolCallQuerySchema.parse(wait === undefined ? {} : { wait })).toEqual({ wait: seconds });
  });

  it.each(['1e1', '0x10', '0b1', '1.0', '1.5', ' 5', '5 ', '+5', '-1', '61', '', 'ten', 'Infinity'])(
    'refuses %j',
    (wait) => {
      const parsed = toolCallQuerySchema.safeParse({ wait });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('wait must be a whole number of seconds from 0 to 60.');
    },
  );

  it('refuses a repeated wait', () => {
    expect(toolCallQuerySchema.safeParse({ wait: ['1', '2'] }).success).toBe(false);
  });
});
