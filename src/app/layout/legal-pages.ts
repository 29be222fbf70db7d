/** One footer page: its path, title key and paragraph keys (literal keys, so the locale test sees them). */
export interface LegalPageInfo {
  path: string;
  titleKey: string;
  paragraphKeys: readonly string[];
}

/** The footer's pages, each a short real text. */
export const LEGAL_PAGES: readonly LegalPageInfo[] = [
  {
    path: '/privacy-policy',
    titleKey: 'pages.legal.privacy.title',
    paragraphKeys: ['pages.legal.privacy.p1', 'pages.legal.privacy.p2', 'pages.legal.privacy.p3'],
  },
  {
    path: '/security-arrangement',
    titleKey: 'pages.legal.security.title',
    paragraphKeys: ['pages.legal.security.p1', 'pages.legal.security.p2', 'pages.legal.security.p3'],
  },
  {
    path: '/client-charter',
    titleKey: 'pages.legal.charter.title',
    paragraphKeys: ['pages.legal.charter.p1', 'pages.legal.charter.p2', 'pages.legal.charter.p3'],
  },
  {
    path: '/terms-and-conditions',
    titleKey: 'pages.legal.terms.title',
    paragraphKeys: ['pages.legal.terms.p1', 'pages.legal.terms.p2', 'pages.legal.terms.p3'],
  },
  {
    path: '/copyright-notice',
    titleKey: 'pages.legal.copyright.title',
    paragraphKeys: ['pages.legal.copyright.p1', 'pages.legal.copyright.p2'],
  },
];
