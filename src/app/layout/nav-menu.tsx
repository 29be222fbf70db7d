import { Flex, Text, Tooltip } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.js';
import { NAV_GROUPS, type NavGroup } from './nav-items.js';

/** The groups and entries a role sees; groups left empty are dropped. */
export function navGroupsFor(role: string | undefined): NavGroup[] {
  return NAV_GROUPS.map((group) => ({
    ...group,
    items: group.items.filter((item) => role !== undefined && (item.roles ?? ['admin']).includes(role)),
  })).filter((group) => group.items.length > 0);
}

/** The menu's links, grouped; `collapsed` shows icons only (labels stay for screen readers). */
export function NavMenu({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <Flex direction="column" gap="4">
      {navGroupsFor(user?.role).map((group) => (
        <Flex direction="column" gap="1" key={group.labelKey} role="group" aria-label={t(group.labelKey)}>
          {!collapsed && (
            <Text size="1" color="gray" weight="medium" className="nav-group-label">
              {t(group.labelKey)}
            </Text>
          )}
          {group.items.map(({ to, labelKey, icon: Icon }) => {
            const link = (
              <NavLink
                key={to}
                to={to}
                className="nav-link"
                data-collapsed={collapsed || undefined}
                onClick={onNavigate}
                aria-label={collapsed ? t(labelKey) : undefined}
              >
                <Icon width={16} height={16} aria-hidden />
                {!collapsed && <span>{t(labelKey)}</span>}
              </NavLink>
            );
            return collapsed ? (
              <Tooltip key={to} content={t(labelKey)} side="right">
                {link}
              </Tooltip>
            ) : (
              link
            );
          })}
        </Flex>
      ))}
    </Flex>
  );
}
