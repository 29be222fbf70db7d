/** What every scenario gets from the runner. */
export interface BenchContext {
  /** The command line, printed with every figure. */
  command: string;
  log: (line: string) => void;
  connections: number;
  /** Measured seconds per case (after a one-second warm-up). */
  seconds: number;
  /** PostgreSQL database the bench may fill, when given. */
  postgresUrl?: string;
  /** A PGlite data directory kept for this scenario between runs (seeded once). */
  pgliteDir(scenario: string): string;
}

/** A named benchmark; `run` prints its figures and returns false when a target is missed. */
export interface BenchScenario {
  name: string;
  description: string;
  /** Whether `npm run bench` without names runs it (heavy scenarios need a seeded database). */
  byDefault: boolean;
  run(context: BenchContext): Promise<boolean>;
}
