import type { i18n as I18n } from 'i18next';
import { http } from '../engine/data/http-client.js';
import { DEFAULT_PRODUCT_TITLE } from '../shared/product.js';

/** GET/PUT /api/settings/product's answer: the name in use, whether the programme set its own, the default. */
export interface ProductNameAnswer {
  name: string;
  custom: boolean;
  default: string;
}

/**
 * Makes `{{product}}` in every text (page titles' `pages.titles.appName`, the brand, the footer's
 * copyright, mails) read `name`: i18next's default interpolation variables, read on every `t` call.
 */
export function applyProductName(i18n: I18n, name: string | null | undefined, rerender = true): void {
  const interpolation = i18n.options.interpolation ?? {};
  const product = name?.trim() || DEFAULT_PRODUCT_TITLE;
  if (interpolation.defaultVariables?.product === product) return;
  interpolation.defaultVariables = { ...interpolation.defaultVariables, product };
  i18n.options.interpolation = interpolation;
  // Screens re-render on a language change; the same language again re-renders them with the name.
  if (rerender && i18n.isInitialized && i18n.resolvedLanguage) void i18n.changeLanguage(i18n.resolvedLanguage);
}

/** The name now in use (public: the sign-in page titles itself with it). */
export async function fetchProductName(): Promise<ProductNameAnswer> {
  return (await http.get<{ data: ProductNameAnswer }>('/settings/product', { handleUnauthorized: false })).data;
}

/** Stores the programme's own name (admins; blank goes back to the default). */
export async function saveProductName(name: string): Promise<ProductNameAnswer> {
  return (await http.put<{ data: ProductNameAnswer }>('/settings/product', { name: name.trim() || null })).data;
}

/** Asks the server for the name and applies it; on any failure the default stays. */
export async function loadProductName(i18n: I18n): Promise<void> {
  if (typeof window === 'undefined' || !/^https?:$/.test(window.location.protocol)) return;
  try {
    applyProductName(i18n, (await fetchProductName()).name);
  } catch {
    // No server (tests) or a network fault: the default name stays.
  }
}
