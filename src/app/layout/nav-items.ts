import { deferredIcon, type Icon } from './menu-icon.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';

/** One menu entry: where it goes, its i18n label and icon. */
export interface NavItem {
  to: string;
  labelKey: string;
  icon: Icon;
}

/** A link that is not an entity's list: its group, position in the group, and who sees it (admins when absent). */
export interface NavLinkEntry extends NavItem {
  group: string;
  order: number;
  roles?: readonly string[];
}

/** A titled group of entries. */
export interface NavGroup {
  id: string;
  labelKey: string;
  items: readonly NavItem[];
}

/**
 * The groups in the order the menu shows them; an entity whose descriptor names another group
 * (`menu.group`) gets it after these, titled by `nav.groups.<group>`.
 */
export const NAV_GROUP_ORDER: readonly string[] = ['jury', 'overview', 'contest', 'judging', 'setup'];

/** The menu's links that are not an entity's list (the entity lists come from the descriptors' `menu` blocks). */
export const NAV_LINKS: readonly NavLinkEntry[] = [
  { group: 'jury', order: 10, to: '/jury', labelKey: 'nav.jury', icon: deferredIcon('ReaderIcon'), roles: ['juror'] },
  { group: 'jury', order: 20, to: '/profile', labelKey: 'nav.profile', icon: deferredIcon('TokensIcon'), roles: ['juror'] },
  { group: 'overview', order: 10, to: '/dashboard', labelKey: 'nav.dashboard', icon: deferredIcon('DashboardIcon') },
  { group: 'overview', order: 20, to: '/import-data', labelKey: 'nav.importData', icon: deferredIcon('UploadIcon') },
  { group: 'contest', order: 5, to: '/submissions', labelKey: 'nav.submissions', icon: deferredIcon('FileTextIcon') },
  { group: 'judging', order: 72, to: '/exam-judging', labelKey: 'judging.actions.judging', icon: deferredIcon('ReaderIcon') },
  { group: 'setup', order: 80, to: '/audit-log', labelKey: 'history.audit.nav', icon: deferredIcon('CounterClockwiseClockIcon') },
  { group: 'setup', order: 81, to: '/trash', labelKey: 'history.trash.nav', icon: deferredIcon('TrashIcon') },
  { group: 'setup', order: 82, to: '/manage-account', labelKey: 'nav.accounts', icon: deferredIcon('LockClosedIcon') },
  { group: 'setup', order: 90, to: '/profile', labelKey: 'nav.profile', icon: deferredIcon('TokensIcon') },
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
export const MENU_ICONS: Readonly<Record<string, Icon>> = Object.fromEntries(
  MENU_ICON_NAMES.map((name) => [name, deferredIcon(name)]),
);

/** A descriptor's `menu.icon` (`ArchiveIcon`), or a plain file icon for none or a name not in {@link MENU_ICONS}. */
export function menuIcon(name: string | undefined): Icon {
  return (name !== undefined && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined) ?? MENU_ICONS.FileTextIcon!;
}

/**
 * The menu a caller sees: the links their role may open, and the list of every entity whose
 * descriptor shows it in the menu and that the caller may list (`/api/meta/entities` already holds
 * only the caller's entities, with permissions resolved), grouped and ordered by `menu.group` and
 * `menu.order`; empty groups are dropped.
 */
export function buildNav(role: string | undefined, entities: readonly ClientEntity[]): NavGroup[] {
  if (role === undefined) return [];
  const entries: NavLinkEntry[] = [
    ...NAV_LINKS.filter((link) => (link.roles ?? ['admin']).includes(role)),
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
  const groups = [...NAV_GROUP_ORDER];
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
