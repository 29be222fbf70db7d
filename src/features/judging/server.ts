import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { applicantRoutes } from './server/applicant-routes.js';
import { dashboardRoutes } from './server/dashboard-routes.js';
import { deadlineRemindersJob } from './server/deadline-reminders.js';
import { examStatusJob } from './server/exam-scheduler.js';
import { assignmentRules } from './server/hooks/assignment-rules.js';
import { examNotFinal } from './server/hooks/exam-not-final.js';
import { examDuplicateRound, examRules } from './server/hooks/exam-rules.js';
import { judgingRoutes } from './server/judging-routes.js';
import { juryRoutes } from './server/jury-routes.js';
import { migration004Judging } from './server/migrations/004-judging.js';
import { migration014JudgingSeason } from './server/migrations/014-judging-season.js';
import { migration017JudgingSchedulerLeases } from './server/migrations/017-judging-scheduler-leases.js';
import { migration023JudgingDeadlineReminders } from './server/migrations/023-judging-deadline-reminders.js';
import { reviewRoutes } from './server/review-routes.js';
import { seasonRoutes } from './server/season-routes.js';
import { judgingNames } from './shared/extension-names.js';

/** Judging's server face: exams, assignments, grades, the jury portal, applicants and the dashboard. */
export const judgingServer: ServerFeature = {
  name: 'judging',
  async routes(app: FastifyInstance) {
    await app.register(dashboardRoutes);
    await app.register(judgingRoutes);
    await app.register(juryRoutes);
    await app.register(seasonRoutes);
    await app.register(reviewRoutes);
    await app.register(applicantRoutes);
  },
  hooks: {
    'exam-rules': examRules,
    'exam-duplicate-round': examDuplicateRound,
    'assignment-rules': assignmentRules,
    'exam-not-final': examNotFinal,
  },
  clientNames: judgingNames,
  migrations: {
    '004-judging': migration004Judging,
    '014-judging-season': migration014JudgingSeason,
    '017-judging-scheduler-leases': migration017JudgingSchedulerLeases,
    '023-judging-deadline-reminders': migration023JudgingDeadlineReminders,
  },
  // On the one scheduler (one server per run): exams open and close by themselves at opens_at /
  // closes_at; jurors with work left are reminded 48 h and 24 h before an exam closes (DEADLINE_REMINDER_HOURS).
  jobs: [examStatusJob, deadlineRemindersJob],
};

export { assignedCodes as entryCodesOf } from './server/entry-codes.js';
export type { ExamFinalEvent, ExamFinalHandler } from './server/exam-final.js';
export { finalisedConflict, onExamFinal } from './server/exam-final.js';
export type { JudgingMail, Recipient } from './server/judging-mail.js';
export { entrantPortal, mailTo, recordRecipients } from './server/judging-mail.js';
export { reviewContest } from './server/review.service.js';
export type { ShortlistStates } from './server/shortlist-states.js';
export { provideShortlistStates } from './server/shortlist-states.js';
export type { ShortlistedEntries, ShortlistedEntry } from './server/shortlisted-entries.js';
export { provideShortlistedEntries } from './server/shortlisted-entries.js';
