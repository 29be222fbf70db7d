import { Flex, Text, Tooltip } from '@radix-ui/themes';
import { useMemo } from 'react';
import { NavLink } from 'react-router-dom';
import { useMetaEntities } from '../../engine/data/use-meta.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { useAuth } from '../auth/auth-context.js';
import { buildNav } from './nav-items.js';

/** The menu's links, grouped; `collapsed` shows icons only (labels stay for screen readers). */
export function NavMenu({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  // The entity entries join the fixed links once the descriptors are in.
  const entities = useMetaEntities().data;
  const groups = useMemo(() => buildNav(user?.role, entities ?? []), [user?.role, entities]);
  return (
    <Flex direction="column" gap="4">
      {groups.map((group) => (
        <Flex direction="column" gap="1" key={group.id} role="group" aria-label={t(group.labelKey)}>
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
