import { type MenuEntry, type MenuGroup, registeredMenuEntries, registeredMenuGroups } from '../../engine/registry/index.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { ADMIN_ROLE } from '../../shared/roles.js';
import { deferredIcon, type Icon } from './menu-icon.js';

/** One menu entry: where it goes, its i18n label and icon. */
export interface NavItem {
  to: string;
  labelKey: string;
  icon: Icon;
}

/** A titled group of entries. */
export interface NavGroup {
  id: string;
  labelKey: string;
  items: readonly NavItem[];
}

/**
 * The shell's own groups: the overview first among the console's groups, the setup last. The
 * features place theirs (`menuGroups` of their client faces); a group nobody places (a descriptor's
 * `menu.group` of its own) comes after these, titled by `nav.groups.<group>`.
 */
export const SHELL_MENU_GROUPS: readonly MenuGroup[] = [
  { id: 'overview', order: 20 },
  { id: 'setup', order: 90 },
];

/** The shell's own links for the console's role: its dashboard and the profile page. */
export const SHELL_MENU_ENTRIES: readonly MenuEntry[] = [
  { group: 'overview', order: 10, to: '/dashboard', labelKey: 'nav.dashboard', icon: 'DashboardIcon', roles: [ADMIN_ROLE] },
  { group: 'setup', order: 90, to: '/profile', labelKey: 'nav.profile', icon: 'TokensIcon', roles: [ADMIN_ROLE] },
];

/** The Radix icons a descriptor's `menu.icon` may name (a chosen few: see `menu-icons.ts`). */
const MENU_ICON_NAMES = [
  'ArchiveIcon',
  'BackpackIcon',
  'BarChartIcon',
  'BookmarkIcon',
  'CalendarIcon',
  'ChatBubbleIcon',
  'Component1Icon',
  'CounterClockwiseClockIcon',
  'CubeIcon',
  'DashboardIcon',
  'EnvelopeClosedIcon',
  'FileTextIcon',
  'GearIcon',
  'GlobeIcon',
  'HeartIcon',
  'HomeIcon',
  'IdCardIcon',
  'ImageIcon',
  'LayersIcon',
  'LockClosedIcon',
  'MixIcon',
  'PersonIcon',
  'ReaderIcon',
  'RocketIcon',
  'StarIcon',
  'TableIcon',
  'TokensIcon',
  'TrashIcon',
  'UploadIcon',
] as const;

/**
 * The Radix icons a descriptor's `menu.icon` may name, each drawn once `menu-icons.ts` has loaded
 * (after the first paint: the icons are path data the first list need not wait for).
 */
export const MENU_ICONS: Readonly<Record<string, Icon>> = Object.fromEntries(MENU_ICON_NAMES.map((name) => [name, deferredIcon(name)]));

/** A descriptor's `menu.icon` (`ArchiveIcon`), or a plain file icon for none or a name not in {@link MENU_ICONS}. */
export function menuIcon(name: string | undefined): Icon {
  return (name !== undefined && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined) ?? MENU_ICONS.FileTextIcon!;
}

/**
 * The menu a caller sees: the links their role may open (the shell's and the features'), and the
 * list of every entity whose descriptor shows it in the menu and that the caller may list
 * (`/api/meta/entities` already holds only the caller's entities, with permissions resolved),
 * grouped and ordered by group and order; empty groups are dropped.
 */
export function buildNav(
  role: string | undefined,
  entities: readonly ClientEntity[],
  links: readonly MenuEntry[] = [...SHELL_MENU_ENTRIES, ...registeredMenuEntries()],
  placed: readonly MenuGroup[] = [...SHELL_MENU_GROUPS, ...registeredMenuGroups()],
): NavGroup[] {
  if (role === undefined) return [];
  const entries = [
    ...links.filter((link) => (link.roles as readonly string[]).includes(role)).map((link) => ({ ...link, icon: menuIcon(link.icon) })),
    ...entities
      .filter((entity) => entity.menu.show && entity.permissions.list)
      .map((entity) => ({
        group: entity.menu.group,
        order: entity.menu.order,
        to: `/${entity.routes.list}`,
        labelKey: entity.menu.label,
        icon: menuIcon(entity.menu.icon),
      })),
  ];
  const groups = [...new Set([...placed].sort((a, b) => a.order - b.order).map((group) => group.id))];
  for (const entry of entries) if (!groups.includes(entry.group)) groups.push(entry.group);
  return groups
    .map((id) => ({
      id,
      labelKey: `nav.groups.${id}`,
      items: entries
        .filter((entry) => entry.group === id)
        .sort((a, b) => a.order - b.order || a.labelKey.localeCompare(b.labelKey))
        .map(({ to, labelKey, icon }) => ({ to, labelKey, icon })),
    }))
    .filter((group) => group.items.length > 0);
}
