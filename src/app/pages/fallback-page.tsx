import { matchPath, useLocation } from 'react-router-dom';
import { PLACEHOLDER_ROUTES } from '../placeholder-routes.js';
import { NotFoundPage } from './not-found-page.js';
import { PlaceholderPage } from './placeholder-page.js';

/**
 * What the entity routes show when no descriptor claims the path: the titled placeholder of a
 * known route whose screen is not built yet, else the 404 page. A descriptor that
 * later claims the path (a jury, an examination) takes over without a change here.
 */
export function FallbackPage() {
  const { pathname } = useLocation();
  const placeholder = PLACEHOLDER_ROUTES.find((route) => matchPath(route.path, pathname));
  if (!placeholder) return <NotFoundPage />;
  return <PlaceholderPage key={placeholder.path} titleKey={placeholder.titleKey} descriptionKey={placeholder.descriptionKey} />;
}

export default FallbackPage;
