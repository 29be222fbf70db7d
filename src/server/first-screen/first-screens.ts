import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthUser } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import type { FirstScreen, FirstScreenInput } from '../../shared/first-screen.js';
import { ADMIN_ROLE } from '../../shared/roles.js';
import { FirstScreenRenderer } from './renderer.js';
import { warmUpPage } from './warm-up.js';

/** Who a warm-up render is drawn for: nobody's account, never shown. */
const WARM_UP_USER: AuthUser = {
  id: '0',
  name: '',
  email: '',
  role: ADMIN_ROLE,
  avatarUrl: null,
  lastLoginTimestamp: null,
  preferences: { theme: 'light', language: 'en', notifications: false },
};
/**
 * How long the warm-up waits after a visitor's render before its next one: a visitor's page load
 * is a burst of requests and of the browser's own work, which the warm-up would take CPU from.
 */
const VISITOR_QUIET_MS = 1000;
/**
 * How many times the warm-up draws each list's page of made-up rows. The frame's code (the
 * sidebar, the header, the toolbar) runs once a render, so one round leaves it barely optimised:
 * the first visitor's render then took 38-87 ms of the thread's CPU (median 53) against some 35
 * after four rounds; on 2 cores with the browser loading the page it waits for the CPU three times
 * as long again. Four rounds of the demo's 12 lists are some 1.5 s of the thread's CPU after the
 * server's start, on its own core, paused for visitors (see {@link FirstScreens.quiet}) and, after the
 * first round, for any request ({@link IDLE_MS}).
 */
const WARM_UP_ROUNDS = 4;
/**
 * How long the server goes without a request before each render of the warm-up's later rounds:
 * they are worth having, not worth taking a core from a server busy from its start (a load
 * test's first seconds, a page being loaded), which they would for some seconds.
 */
const IDLE_MS = 250;
const EMPTY_PAGE = { data: [], meta: { current_page: 1, last_page: 1, total: 0, per_page: 15 }, links: { first: '', last: '', prev: null, next: null } };

/** Resolves once `remaining` (ms still to wait, asked again after each wait) is zero or less. */
async function waitUntil(remaining: () => number): Promise<void> {
  for (let wait = remaining(); wait > 0; wait = remaining()) {
    await new Promise((resolve) => setTimeout(resolve, wait).unref());
  }
}

/**
 * The render module built beside the server (build.mjs): beside the running server's file when it
 * is the built one, else in the build's folder (a server run from its sources).
 */
export function firstScreenWorkerFile(publicDir: string): string {
  const beside = fileURLToPath(new URL('./first-screen-worker.js', import.meta.url));
  return fs.existsSync(beside) ? beside : path.join(publicDir, '../server/first-screen-worker.js');
}

/**
 * A render thread for {@link FirstScreens}, started now: `main.ts` starts it before it imports the
 * server's modules, so that the thread's own start (its render code loaded and compiled, some
 * 400 ms) runs beside theirs. Without the built render module there is none to start.
 */
export function startFirstScreenThread(publicDir: string): FirstScreenRenderer {
  const renderer = new FirstScreenRenderer(firstScreenWorkerFile(publicDir));
  if (renderer.available) void renderer.start();
  return renderer;
}

/**
 * A server's first-screen render thread, warm before its first visitor: {@link warmUp} starts it
 * and renders an empty page (a new thread's first render is slow, its code being compiled then),
 * then, in the background and one at a time, a page of made-up rows for every list the admin sees,
 * a few rounds of them (`warm-up.ts`: the row and cell code, half of a render, compiled and
 * optimised too, and the frame's, which runs once a render, optimised).
 *
 * The main program starts the thread before it loads the server's modules
 * ({@link startFirstScreenThread}) and `buildApp` asks for the empty page before the database
 * opens, so that the thread's start and first render (some 450 ms of its CPU, on a core of its own)
 * run while the server loads, opens and migrates its database; the pages of made-up rows come once
 * the server serves ({@link serving}), and wait while visitors' renders come. The thread then keeps
 * running: the first visitor after an idle spell is as fast as the rest.
 */
export class FirstScreens {
  private warmed = false;
  private warming: Promise<void> | null = null;
  /** Visitors' renders under way, and when the last one was asked for. */
  private visiting = 0;
  private visitedAt = -Infinity;
  /** Resolves when the server serves (see {@link serving}): the made-up pages wait for it. */
  private readonly served: Promise<void>;
  private serve!: () => void;
  /** Settles when the background renders of made-up rows are done (or stopped: the thread closed). */
  warmedUp: Promise<void> = Promise.resolve();
  private admin: ClientEntity[] | null = null;

  private readonly visitorQuietMs: number;
  private readonly warmUpRounds: number;
  private readonly idleMs: number;
  /** When the server last had a request (see {@link requested}). */
  private requestedAt = -Infinity;

  /**
   * `entities`: what the admin's console lists, as `GET /api/meta/entities` answers it;
   * `visitorQuietMs`: how long the warm-up waits after a visitor's render (tests shorten it);
   * `warmUpRounds`: how many pages of made-up rows it draws for each list ({@link WARM_UP_ROUNDS});
   * `idleMs`: how long without a request its later rounds wait for ({@link IDLE_MS}).
   */
  constructor(
    private readonly renderer: FirstScreenRenderer,
    private readonly entities: () => ClientEntity[],
    {
      visitorQuietMs = VISITOR_QUIET_MS,
      warmUpRounds = WARM_UP_ROUNDS,
      idleMs = IDLE_MS,
    }: { visitorQuietMs?: number; warmUpRounds?: number; idleMs?: number } = {},
  ) {
    this.visitorQuietMs = visitorQuietMs;
    this.warmUpRounds = warmUpRounds;
    this.idleMs = idleMs;
    this.served = new Promise((resolve) => (this.serve = resolve));
  }

  /**
   * Says the server is up (`buildApp` once it is ready): the pages of made-up rows wait for it, so
   * that the server's start shares its machine with the thread's start and first render only
   * (with them too, the server took some 150 ms longer to start on 100,000 contests).
   */
  serving(): void {
    this.serve();
  }

  /** Says the server has a request (an `onRequest` hook): the warm-up's later rounds wait for a spell without one. */
  requested(): void {
    this.requestedAt = performance.now();
  }

  /** Resolves once the server has gone {@link idleMs} without a request. */
  private idle(): Promise<void> {
    return waitUntil(() => this.requestedAt + this.idleMs - performance.now());
  }

  /** Whether the built render module is there (a server run from its sources has none). */
  get available(): boolean {
    return this.renderer.available;
  }

  /** Whether the thread is up and warm, waiting up to `waitMs` for it; if it is not, starts it (once at a time). */
  async ready(waitMs: number): Promise<boolean> {
    if (this.warmed && this.renderer.running) return true;
    this.warmed = false;
    this.warming ??= this.warmUp().finally(() => (this.warming = null));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.warming, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    return this.warmed && this.renderer.running;
  }

  /** The screen's markup and title, or null when it is not rendered (see {@link FirstScreenRenderer.render}). */
  async render(input: FirstScreenInput): Promise<FirstScreen | null> {
    this.visiting += 1;
    this.visitedAt = performance.now();
    try {
      return await this.renderer.render(input);
    } finally {
      this.visiting -= 1;
    }
  }

  /** Resolves once no visitor's render is under way nor was asked for within the quiet time. */
  private quiet(): Promise<void> {
    return waitUntil(() => (this.visiting > 0 ? this.visitorQuietMs : this.visitedAt + this.visitorQuietMs - performance.now()));
  }

  close(): Promise<void> {
    return this.renderer.close();
  }

  /** A render of `entity`'s list with `list` for nobody (see {@link WARM_UP_USER}). */
  private page(entity: ClientEntity, list: unknown): FirstScreenInput {
    return { path: `/${entity.routes.list}`, search: '', language: 'en', user: WARM_UP_USER, entities: this.adminEntities(), entity, list };
  }

  /** The admin's descriptors, asked for once: the same list for every warm-up render (the thread gets it once, see renderer.ts). */
  private adminEntities(): ClientEntity[] {
    this.admin ??= this.entities();
    return this.admin;
  }

  private async warmUp(): Promise<void> {
    const entities = this.adminEntities();
    const first = entities.find((candidate) => candidate.permissions.list);
    if (!first) return;
    await this.renderer.render(this.page(first, EMPTY_PAGE));
    this.warmed = this.renderer.running;
    // One at a time, so that a visitor's render waits behind one of them at most, and none while
    // visitors come (their renders, and their browsers' work when on the same machine, go first).
    const listed = entities.filter((candidate) => candidate.permissions.list);
    const pages = new Map(listed.map((each) => [each, warmUpPage(each)]));
    this.warmedUp = (async () => {
      await this.served;
      // Round by round: every list's cells are compiled in the first, the rest optimise, each
      // render of them once the server has a spell without requests.
      for (let round = 0; round < this.warmUpRounds; round++) {
        for (const each of listed) {
          await this.quiet();
          if (round > 0) await this.idle();
          if (!this.renderer.running) return;
          await this.renderer.render(this.page(each, pages.get(each)));
        }
      }
    })();
  }
}
