/** Judging's shared face: the wire types and pure rules other features and both sides may use. */

export type { DashboardData, JudgingStatus, LatestContest, RoundFigures } from './shared/dashboard-contract.js';
export { JUDGING_STATUSES } from './shared/dashboard-contract.js';
export { judgingNames } from './shared/extension-names.js';
export { judgingStatus } from './shared/judging-status.js';
