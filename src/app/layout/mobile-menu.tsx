import { Cross1Icon, HamburgerMenuIcon } from '@radix-ui/react-icons';
import { Box, Flex, IconButton, Text } from '@radix-ui/themes';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { APP_TITLE_KEY } from '../../engine/ui/screen-header.js';
import { homePathFor } from '../../shared/roles.js';
import { useAuth } from '../auth/auth-context.js';
import { NavMenu } from './nav-menu.js';

/**
 * Small screens: a mobile header with the menu button, and a slide-in menu that closes on
 * navigation, on Escape and on a click outside; focus moves into it and back to the button.
 */
export function MobileMenu() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: closes the menu on each navigation: the path is the trigger, not a value the effect reads
  useEffect(() => setOpen(false), [location.pathname]);

  useEffect(() => {
    if (open) {
      panel.current?.querySelector<HTMLElement>('a, button')?.focus();
      const onKey = (event: KeyboardEvent) => {
        if (event.key === 'Escape') setOpen(false);
        if (event.key !== 'Tab' || !panel.current) return;
        // Keep Tab inside the open menu, as a modal should.
        const focusable = [...panel.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last?.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first?.focus();
        }
      };
      document.addEventListener('keydown', onKey);
      wasOpen.current = true;
      return () => document.removeEventListener('keydown', onKey);
    }
    if (wasOpen.current) button.current?.focus();
    wasOpen.current = false;
    return undefined;
  }, [open]);

  return (
    <Box display={{ initial: 'block', md: 'none' }}>
      {/* A nav, not a second <header>: the page's one banner is the header below it. */}
      <Flex asChild align="center" justify="between" px="3" py="2" className="mobile-header">
        <nav aria-label={t('nav.menu')}>
          <IconButton
            ref={button}
            variant="ghost"
            color="gray"
            size="3"
            onClick={() => setOpen(true)}
            aria-label={t('nav.openMenu')}
            aria-expanded={open}
            aria-controls="mobile-menu"
            data-testid="mobile-menu-button"
          >
            <HamburgerMenuIcon width={20} height={20} />
          </IconButton>
          <Link to={homePathFor(user?.role)} className="brand-link">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            <Text weight="bold">{t(APP_TITLE_KEY)}</Text>
          </Link>
          <span style={{ width: 40 }} aria-hidden />
        </nav>
      </Flex>
      <div className="mobile-menu-backdrop" data-open={open || undefined} onClick={() => setOpen(false)} aria-hidden />
      <div
        id="mobile-menu"
        ref={panel}
        className="mobile-menu"
        data-open={open || undefined}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.main')}
        hidden={!open}
        data-testid="mobile-menu"
      >
        {/* Its content only while it is open: closed, it is hidden, and the menu's items would be
            drawn twice on every page (the sidebar has them), the server's first screen too. */}
        {open && (
          <>
            <Flex justify="between" align="center" p="3">
              <Text weight="bold">{t('nav.menu')}</Text>
              <IconButton variant="ghost" color="gray" onClick={() => setOpen(false)} aria-label={t('nav.closeMenu')}>
                <Cross1Icon />
              </IconButton>
            </Flex>
            <Box px="3" pb="4" asChild>
              <nav aria-label={t('nav.main')}>
                <NavMenu onNavigate={() => setOpen(false)} />
              </nav>
            </Box>
          </>
        )}
      </div>
    </Box>
  );
}
