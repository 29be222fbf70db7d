/** An import's limits, the server's checks and the import screen's line about them (both sides read these). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Rows one import takes at most. */
export const MAX_IMPORT_ROWS = 200_000;
