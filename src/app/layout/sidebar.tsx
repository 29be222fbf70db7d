import { DoubleArrowLeftIcon, DoubleArrowRightIcon } from '@radix-ui/react-icons';
import { Box, Flex, IconButton, ScrollArea, Text } from '@radix-ui/themes';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { APP_TITLE_KEY } from '../../engine/ui/screen-header.js';
import { homePathFor } from '../../shared/roles.js';
import { useAuth } from '../auth/auth-context.js';
import { NavMenu } from './nav-menu.js';
import { SIDEBAR_COLLAPSED_KEY } from './sidebar-state.js';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The large-screen sidebar: brand, menu, and a collapse toggle whose state is remembered. */
export function Sidebar() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = () => {
    setCollapsed((value) => {
      try {
        localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(!value));
      } catch {
        // Not remembered; still toggled.
      }
      return !value;
    });
  };
  return (
    <Box asChild className="app-sidebar" data-collapsed={collapsed || undefined} display={{ initial: 'none', md: 'block' }}>
      <aside aria-label={t('nav.sidebar')}>
        <Flex direction="column" height="100%">
          <Flex align="center" justify={collapsed ? 'center' : 'between'} gap="2" p="3" className="app-sidebar-head">
            {!collapsed && (
              <Link to={homePathFor(user?.role)} className="brand-link">
                <img src="/favicon.svg" alt="" width={24} height={24} />
                <Text weight="bold">{t(APP_TITLE_KEY)}</Text>
              </Link>
            )}
            <IconButton
              variant="ghost"
              color="gray"
              onClick={toggle}
              aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
              aria-expanded={!collapsed}
              data-testid="sidebar-toggle"
            >
              {collapsed ? <DoubleArrowRightIcon /> : <DoubleArrowLeftIcon />}
            </IconButton>
          </Flex>
          <ScrollArea scrollbars="vertical" style={{ flexGrow: 1 }}>
            <Box p="3" asChild>
              <nav aria-label={t('nav.main')}>
                <NavMenu collapsed={collapsed} />
              </nav>
            </Box>
          </ScrollArea>
        </Flex>
      </aside>
    </Box>
  );
}
