import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { applicantRoutes } from './server/applicant-routes.js';
import { dashboardRoutes } from './server/dashboard-routes.js';
import { assignmentRules } from './server/hooks/assignment-rules.js';
import { examNotFinal } from './server/hooks/exam-not-final.js';
import { examRules } from './server/hooks/exam-rules.js';
import { judgingRoutes } from './server/judging-routes.js';
import { juryRoutes } from './server/jury-routes.js';
import { migration004Judging } from './server/migrations/004-judging.js';
import { judgingNames } from './shared/extension-names.js';

/** Judging's server face: exams, assignments, grades, the jury portal, applicants and the dashboard. */
export const judgingServer: ServerFeature = {
  name: 'judging',
  async routes(app: FastifyInstance) {
    await app.register(dashboardRoutes);
    await app.register(judgingRoutes);
    await app.register(juryRoutes);
    await app.register(applicantRoutes);
  },
  hooks: { 'exam-rules': examRules, 'assignment-rules': assignmentRules, 'exam-not-final': examNotFinal },
  clientNames: judgingNames,
  migrations: { '004-judging': migration004Judging },
};

export type { ExamFinalEvent, ExamFinalHandler } from './server/exam-final.js';
export { finalisedConflict, onExamFinal } from './server/exam-final.js';
export type { ShortlistStates } from './server/shortlist-states.js';
export { provideShortlistStates } from './server/shortlist-states.js';
