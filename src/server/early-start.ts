import { loadConfig } from './config.js';
import { startFirstScreenThread } from './first-screen/first-screens.js';
import type { FirstScreenRenderer } from './first-screen/renderer.js';
import { keepEmbeddedServerSmall } from './memory.js';

/** What the main program starts before it loads the server's modules (see {@link startEarly}). */
export interface EarlyStart {
  firstScreenRenderer?: FirstScreenRenderer;
}

/**
 * The main program's first step, before it imports the server (its packages and modules take this
 * thread some 700 ms to load): the first-screen render thread starts, so that its own start (its
 * render code loaded and compiled, some 400 ms) and its warm-up run beside that load and the
 * database's opening, on a core of their own, rather than while the first visitors come. Only
 * light modules here (no package): they load before it starts.
 * A configuration that does not load starts nothing; the server then says what is wrong with it.
 */
export function startEarly(env: NodeJS.ProcessEnv = process.env): EarlyStart {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch {
    return {};
  }
  // The embedded server's memory settings are the process's: set before the thread's heap is made.
  if (!config.databaseUrl) keepEmbeddedServerSmall();
  return config.firstScreenAtStart ? { firstScreenRenderer: startFirstScreenThread(config.publicDir) } : {};
}
