import {
  ArchiveIcon,
  BackpackIcon,
  DashboardIcon,
  FileTextIcon,
  IdCardIcon,
  LayersIcon,
  PersonIcon,
  ReaderIcon,
  RocketIcon,
  StarIcon,
  TokensIcon,
  UploadIcon,
  Component1Icon,
  CounterClockwiseClockIcon,
  TrashIcon,
  LockClosedIcon,
} from '@radix-ui/react-icons';
import type { ComponentType } from 'react';

/** One sidebar entry: where it goes, its i18n label and icon, and who sees it (admins when absent). */
export interface NavItem {
  to: string;
  labelKey: string;
  icon: ComponentType<{ width?: number; height?: number; 'aria-hidden'?: boolean }>;
  roles?: readonly string[];
}

/** A titled group of entries. */
export interface NavGroup {
  labelKey: string;
  items: readonly NavItem[];
}

/** The spec's menu entries (§1), for admins unless an entry names its roles, grouped as staff think of them. */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    labelKey: 'nav.groups.jury',
    items: [
      { to: '/jury', labelKey: 'nav.jury', icon: ReaderIcon, roles: ['juror'] },
      { to: '/profile', labelKey: 'nav.profile', icon: TokensIcon, roles: ['juror'] },
    ],
  },
  {
    labelKey: 'nav.groups.overview',
    items: [
      { to: '/dashboard', labelKey: 'nav.dashboard', icon: DashboardIcon },
      { to: '/import-data', labelKey: 'nav.importData', icon: UploadIcon },
    ],
  },
  {
    labelKey: 'nav.groups.contest',
    items: [
      { to: '/submissions', labelKey: 'nav.submissions', icon: FileTextIcon },
      { to: '/manage-contest', labelKey: 'nav.contests', icon: ArchiveIcon },
      { to: '/manage-customer', labelKey: 'nav.submittors', icon: IdCardIcon },
      { to: '/manage-applicant', labelKey: 'nav.applicants', icon: PersonIcon },
      { to: '/manage-campaign', labelKey: 'nav.campaigns', icon: RocketIcon },
    ],
  },
  {
    labelKey: 'nav.groups.judging',
    items: [
      { to: '/manage-jury', labelKey: 'nav.juries', icon: Component1Icon },
      { to: '/manage-exam', labelKey: 'nav.examinations', icon: ReaderIcon },
      { to: '/exam-judging', labelKey: 'judging.actions.judging', icon: ReaderIcon },
      { to: '/manage-award-category', labelKey: 'nav.awardCategories', icon: StarIcon },
    ],
  },
  {
    labelKey: 'nav.groups.setup',
    items: [
      { to: '/manage-company', labelKey: 'nav.companies', icon: BackpackIcon },
      { to: '/manage-category', labelKey: 'nav.categories', icon: LayersIcon },
      { to: '/audit-log', labelKey: 'history.audit.nav', icon: CounterClockwiseClockIcon },
      { to: '/trash', labelKey: 'history.trash.nav', icon: TrashIcon },
      { to: '/manage-account', labelKey: 'nav.accounts', icon: LockClosedIcon },
      { to: '/profile', labelKey: 'nav.profile', icon: TokensIcon },
    ],
  },
];
