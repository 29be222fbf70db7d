import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/shared/descriptor/create-ajv.js';
import { EMAIL_PATTERN } from '../../src/shared/descriptor/length-first.js';

describe('patterns run only on strings within maxLength', () => {
  it('refuses an over-long string by maxLength without running a backtracking pattern', () => {
    // ^(a+)+$ takes exponential time on "aaaa…b": 40 characters would not finish in minutes.
    const validate = createAjv().compile({ type: 'string', maxLength: 10, pattern: '^(a+)+$' });
    const started = performance.now();
    expect(validate(`${'a'.repeat(40)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['maxLength']);
  });

  it('still reports a pattern miss within maxLength, in ajv’s error shape', () => {
    const validate = createAjv().compile({ type: 'object', properties: { code: { type: 'string', maxLength: 10, pattern: '^[a-z]+$' } } });
    expect(validate({ code: 'abc' })).toBe(true);
    expect(validate({ code: 'ABC' })).toBe(false);
    expect(validate.errors).toMatchObject([{ keyword: 'pattern', instancePath: '/code', params: { pattern: '^[a-z]+$' } }]);
  });

  it('counts characters as JSON Schema does (code points), so an emoji string at the limit is checked', () => {
    const validate = createAjv().compile({ type: 'string', maxLength: 3, pattern: '^x' });
    expect(validate('😀😀😀')).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['pattern']);
  });
});

describe('EMAIL_PATTERN', () => {
  const email = new RegExp(EMAIL_PATTERN, 'u');

  it.each(['admin@example.com', ' Admin@Example.COM ', 'a.b+c@mail.example.co.id', 'x@y.z'])('accepts %s', (text) => {
    expect(email.test(text)).toBe(true);
  });

  it.each(['', 'admin', 'admin@', '@example.com', 'admin@example', 'a@b@c.d', 'a b@c.d', 'a@.example.com', 'a@example.com.'])('refuses "%s"', (text) => {
    expect(email.test(text)).toBe(false);
  });

  it('answers in linear time on the inputs that made the old pattern quadratic', () => {
    for (const text of [`a@${'.'.repeat(1_000_000)}@`, `a@${'b.'.repeat(500_000)}@`, `${' '.repeat(500_000)}a@b${' '.repeat(500_000)}@`]) {
      const started = performance.now();
      expect(email.test(text)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});
