/** A route whose screen is not built yet, shown as a titled page until it is. */
export interface PlaceholderRoute {
  path: string;
  titleKey: string;
  descriptionKey: string;
}

/**
 * The spec's routes whose screens are not shown beyond their paths and titles. Shown only while no
 * entity descriptor claims the path (see `pages/fallback-page.tsx`).
 */
export const PLACEHOLDER_ROUTES: readonly PlaceholderRoute[] = [
  { path: '/import-data', titleKey: 'pages.titles.importData', descriptionKey: 'pages.placeholder.importData' },
  { path: '/manage-jury', titleKey: 'pages.titles.manageJury', descriptionKey: 'pages.placeholder.manageJury' },
  { path: '/manage-jury/:id', titleKey: 'pages.titles.juryDetail', descriptionKey: 'pages.placeholder.juryDetail' },
  { path: '/manage-jury/edit/:id', titleKey: 'pages.titles.editJury', descriptionKey: 'pages.placeholder.editJury' },
  { path: '/create-jury', titleKey: 'pages.titles.createJury', descriptionKey: 'pages.placeholder.createJury' },
  { path: '/manage-exam', titleKey: 'pages.titles.manageExaminations', descriptionKey: 'pages.placeholder.manageExaminations' },
  { path: '/manage-exam/:id', titleKey: 'pages.titles.examinationDetail', descriptionKey: 'pages.placeholder.examinationDetail' },
  { path: '/manage-award-category', titleKey: 'pages.titles.manageAwardCategory', descriptionKey: 'pages.placeholder.manageAwardCategory' },
  { path: '/manage-applicant', titleKey: 'pages.titles.manageApplicant', descriptionKey: 'pages.placeholder.manageApplicant' },
];
