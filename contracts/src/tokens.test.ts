import { tenthsToTokens, tokensToTenths } from './tokens';
import { passwordProblem } from './password';

describe('token amounts', () => {
  it('round-trips tenths without floating point drift', () => {
    expect(tokensToTenths(0.1)).toBe(1);
    expect(tokensToTenths(1999.9)).toBe(19999);
    expect(tokensToTenths(0.1 + 0.2)).toBe(3);
    expect(tenthsToTokens(123)).toBe(12.3);
    expect(tenthsToTokens('20000')).toBe(2000);
  });
});

describe('password rule', () => {
  it('reports the first rule the password breaks', () => {
    expect(passwordProblem('')).toBe('Password is required');
    expect(passwordProblem('Ab1')).toMatch(/6-12/);
    expect(passwordProblem('Abcdefghijk12')).toMatch(/6-12/);
    expect(passwordProblem('Ab1 def')).toMatch(/spaces/);
    expect(passwordProblem('abcdef1')).toMatch(/uppercase/);
    expect(passwordProblem('ABCDEF1')).toMatch(/lowercase/);
    expect(passwordProblem('Abcdefg')).toMatch(/number/);
    expect(passwordProblem('Abcdef1')).toBeNull();
  });
});
