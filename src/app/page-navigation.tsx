import { type AnchorHTMLAttributes, type ComponentType, createContext, useContext, useEffect } from 'react';

/** A link to another page of the console (react-router's `<Link to>` in the app). */
export interface PageLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** Replaces the current page in the history (in the app; a plain link always adds one). */
  replace?: boolean;
}

/**
 * How the pages that run both in the app and by themselves (the sign-in page and its footer's
 * links) move on. In the app, the router's root provides react-router's (router-navigation.tsx);
 * the sign-in page opened by itself (sign-in-start.tsx) provides its own, without the router.
 */
export interface PageNavigation {
  /**
   * The navigation state the page was opened with: react-router's `location.state`, or on a page
   * opened by itself what the router left in `history.state` before a reload.
   */
  state: unknown;
  /** Goes on to `to` in place of this page in the history, then shows `notice` (if any) as a success toast. */
  goOn(to: string, notice?: string): void;
  /** Goes on to `to` (in place of this page) as it renders, like react-router's `<Navigate replace>`. */
  Redirect: ComponentType<{ to: string }>;
  Link: ComponentType<PageLinkProps>;
}

/** A plain link: the browser opens the page. */
export function DocumentLink({ to, replace: _replace, ...props }: PageLinkProps) {
  return <a href={to} {...props} />;
}

/** Navigation by documents: what a page outside any provider does (a test rendering it alone). */
const documentNavigation: PageNavigation = {
  state: null,
  goOn: (to) => window.location.replace(to),
  Redirect: function DocumentRedirect({ to }) {
    useEffect(() => window.location.replace(to), [to]);
    return null;
  },
  Link: DocumentLink,
};

export const PageNavigationContext = createContext<PageNavigation>(documentNavigation);

/** The page navigation in force (see {@link PageNavigation}). */
export function usePageNavigation(): PageNavigation {
  return useContext(PageNavigationContext);
}
