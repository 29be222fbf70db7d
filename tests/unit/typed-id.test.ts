import { describe, expect, it } from 'vitest';
import { checkTypedId } from '../../src/engine/list/typed-id.js';

describe('checkTypedId', () => {
  it('accepts a positive integer, trimmed and without leading zeros, and empty text as no filter', () => {
    expect(checkTypedId('42')).toEqual({ value: '42' });
    expect(checkTypedId(' 007 ')).toEqual({ value: '7' });
    expect(checkTypedId('2147483647')).toEqual({ value: '2147483647' });
    expect(checkTypedId('  ')).toEqual({ value: '' });
  });

  it('refuses zero and negative numbers', () => {
    expect(checkTypedId('0')).toEqual({ problem: 'notPositive' });
    expect(checkTypedId('000')).toEqual({ problem: 'notPositive' });
    expect(checkTypedId('-5')).toEqual({ problem: 'notPositive' });
  });

  it('refuses anything but digits', () => {
    for (const text of ['1.5', '1e3', '12a', 'abc', '+3', '١٢', '0x1F', '1 2']) expect(checkTypedId(text), text).toEqual({ problem: 'notDigits' });
  });

  it('checks the length before the form, and refuses IDs no record can have', () => {
    expect(checkTypedId('x'.repeat(10_000))).toEqual({ problem: 'tooLong' });
    expect(checkTypedId('12345678901')).toEqual({ problem: 'tooLong' });
    expect(checkTypedId('2147483648')).toEqual({ problem: 'tooLarge' });
  });
});
