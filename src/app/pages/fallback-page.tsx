import { matchPath, useLocation } from 'react-router-dom';
import { registeredPlaceholders } from '../../engine/registry/index.js';
import { NotFoundPage } from './not-found-page.js';
import { PlaceholderPage } from './placeholder-page.js';

/**
 * What the entity routes show when no descriptor claims the path: the titled placeholder of a
 * route a feature registers before its screen is built (`placeholders` of its client face), else
 * the 404 page. A descriptor that later claims the path takes over without a change here.
 */
export function FallbackPage() {
  const { pathname } = useLocation();
  const placeholder = registeredPlaceholders().find((route) => matchPath(route.path, pathname));
  if (!placeholder) return <NotFoundPage />;
  return <PlaceholderPage key={placeholder.path} titleKey={placeholder.titleKey} descriptionKey={placeholder.descriptionKey} />;
}

export default FallbackPage;
