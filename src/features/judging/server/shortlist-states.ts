import type { EntityRegistry } from '../../../server/index.js';
import type { JudgingDb } from './tables.js';

/**
 * Where contests stand once their category's Round 1 has been shortlisted into Round 2: `in`
 * (shortlisted, waiting for Round 2 grades), `out` (not taken: its judging is over); absent before
 * any shortlist. The shortlist is another feature's (results): it provides the states through
 * {@link provideShortlistStates}, and judging's dashboard asks for them without knowing its tables.
 */
export type ShortlistStates = (
  db: JudgingDb,
  registry: EntityRegistry,
  contests: ReadonlyArray<{ id: number; category_id: number }>,
) => Promise<Map<number, 'in' | 'out'>>;

let provider: ShortlistStates | undefined;

/** Registers the source of the shortlist states (the last one registered answers). */
export function provideShortlistStates(states: ShortlistStates): void {
  provider = states;
}

/** The shortlist state of each contest, from the registered source; none without one. */
export async function shortlistStates(
  db: JudgingDb,
  registry: EntityRegistry,
  contests: ReadonlyArray<{ id: number; category_id: number }>,
): Promise<Map<number, 'in' | 'out'>> {
  return provider && contests.length > 0 ? provider(db, registry, contests) : new Map();
}
