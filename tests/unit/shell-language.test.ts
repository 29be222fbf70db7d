import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, shellFile, shellLanguage } from '../../src/shared/shell-language.js';

describe('shellLanguage', () => {
  it('takes ?lng= first, then the saved cookie, then Accept-Language, else English', () => {
    expect(shellLanguage({ lng: 'ms', cookie: 'i18nextLng=id', acceptLanguage: 'en' })).toBe('ms');
    expect(shellLanguage({ cookie: 'XSRF-TOKEN=abc; i18nextLng=id', acceptLanguage: 'ms' })).toBe('id');
    expect(shellLanguage({ acceptLanguage: 'ms-MY,ms;q=0.9,en;q=0.8' })).toBe('ms');
    expect(shellLanguage({})).toBe('en');
  });

  it('ignores languages the console does not speak at every step', () => {
    expect(shellLanguage({ lng: 'fr', cookie: 'i18nextLng=de', acceptLanguage: 'id-ID' })).toBe('id');
    expect(shellLanguage({ lng: ['id'], acceptLanguage: 'fr, de' })).toBe('en');
  });

  it('follows the q-values of Accept-Language, not only the order', () => {
    expect(fromAcceptLanguage('en;q=0.5, id;q=0.9')).toBe('id');
    expect(fromAcceptLanguage('fr, ms;q=0.2, en;q=0.1')).toBe('ms');
    expect(fromAcceptLanguage('id;q=0, ms')).toBe('ms');
    expect(fromAcceptLanguage('id;q=abc')).toBeUndefined();
    expect(fromAcceptLanguage('')).toBeUndefined();
  });

  it('names the shell file of each language', () => {
    expect(['en', 'id', 'ms'].map((l) => shellFile(l as 'en'))).toEqual(['index.html', 'index.id.html', 'index.ms.html']);
  });
});
