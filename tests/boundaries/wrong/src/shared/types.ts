import type { Engine } from '../engine/index.js';

/** A type-only import counts: src/shared may not reach the engine. */
export type SharedEngine = Engine;
