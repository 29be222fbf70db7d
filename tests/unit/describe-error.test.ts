import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../../src/engine/data/api-error.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const i18n = i18next.createInstance();

beforeAll(async () => {
  const resources = Object.fromEntries(
    ['en', 'id', 'ms'].map((lang) => [lang, { common: JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'common.json'), 'utf8')) }]),
  );
  await i18n.init({ resources, lng: 'en', fallbackLng: 'en', ns: ['common'], defaultNS: 'common', interpolation: { escapeValue: false } });
});

const inLanguage = (lang: string) => i18n.getFixedT(lang) as unknown as (key: string, options?: Record<string, unknown>) => string;
const inUse = (count: number) =>
  new ApiError({
    status: 409,
    code: 'CONFLICT',
    message: `This customer is still used by ${count} contests; it cannot be deleted.`,
    errors: [{ path: '', keyword: 'inUse', messageKey: 'errors.inUse', params: { entity: 'contest', count } }],
  });

describe('describeError', () => {
  it('words a delete-in-use refusal in the chosen language, naming the count and the entity', () => {
    expect(describeError(inUse(1), inLanguage('en'))).toBe('This record is still used by 1 contest; it cannot be deleted.');
    expect(describeError(inUse(1200), inLanguage('en'))).toBe('This record is still used by 1,200 contests; it cannot be deleted.');
    expect(describeError(inUse(1200), inLanguage('id'))).toBe('Data ini masih digunakan oleh 1.200 karya, sehingga tidak dapat dihapus.');
    expect(describeError(inUse(3), inLanguage('ms'))).toBe('Rekod ini masih digunakan oleh 3 penyertaan; ia tidak boleh dipadam.');
  });

  it('never shows the server English message: the code chooses the sentence', () => {
    const stale = new ApiError({ status: 409, code: 'CONFLICT', message: 'Stale record, reload it.' });
    expect(describeError(stale, inLanguage('id'))).toBe('Perubahan ini bertentangan dengan data terkini. Muat ulang, lalu coba lagi.');
    const gone = new ApiError({ status: 404, code: 'NOT_FOUND', message: 'category not found.' });
    expect(describeError(gone, inLanguage('ms'), 'Gagal memadam kategori')).toBe('Rekod ini sudah tiada. Muat semula senarai untuk melihat data terkini.');
  });

  it("uses the screen's own fallback for vague codes and for anything that is not an API error", () => {
    const internal = new ApiError({ status: 500, code: 'INTERNAL', message: 'An internal error occurred.' });
    expect(describeError(internal, inLanguage('ms'), 'Gagal memadam kategori')).toBe('Gagal memadam kategori');
    expect(describeError(internal, inLanguage('id'))).toBe('Terjadi kesalahan');
    expect(describeError(new TypeError('x is undefined'), inLanguage('en'))).toBe('An error occurred');
  });

  it("reads the browser's own network failure as a translated sentence", () => {
    const offline = new ApiError({ status: 0, code: 'NETWORK', message: 'Failed to fetch' });
    expect(describeError(offline, inLanguage('en'), 'Failed to delete category')).toBe('The server could not be reached. Check your connection and try again.');
    expect(describeError(offline, inLanguage('id'))).toBe('Server tidak dapat dihubungi. Periksa koneksi Anda, lalu coba lagi.');
  });
});
