import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type FirstScreen, type FirstScreenInput, type FirstScreenMessage, KEPT_ENTITY_LISTS } from '../../shared/first-screen.js';

/** How the thread is used: how long one render may take, and how many may wait at once. */
export interface RendererOptions {
  /** Before its caller goes without (the browser then renders the screen itself). */
  timeoutMs?: number;
  /** Beyond this many renders waiting, a caller goes without at once (a burst must not queue up work no one waits for). */
  maxWaiting?: number;
  /**
   * After this long without a render the thread stops, giving its memory back (the next render
   * starts one); by default it keeps running: a thread started on demand costs the next visitor
   * its first screen.
   */
  idleMs?: number;
}

/**
 * The thread's heap: the render keeps nothing between renders, so the thread's memory stays well
 * below what V8's default limits would let it grow to. Its young generation is what a render's
 * short-lived objects fill: at 4 MB (and 48 MB old) the collector took 28 % of the thread's time,
 * and a render on a machine busy loading the page took 120-580 ms. At 8 MB, with more room in the
 * old generation, the cold loads of `npm run bench -- compare` (cache off) showed the first row at
 * 0.42× react-admin against 0.46×; 16 MB measured the same and cost more memory.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * Renders signed-in first screens on a thread of their own (`render-worker.ts`, built beside the
 * server with the render module): each a long stretch of CPU work, which the server's thread would
 * otherwise spend while other requests wait. The thread starts on first use (the server asks for
 * one at start), again after it fails, and, when {@link RendererOptions.idleMs} is set, stops after
 * that long without a render to give its memory back; without the built files (a server run from
 * its sources) there is none.
 * See docs/architecture.md, "The first-screen render thread".
 */
export class FirstScreenRenderer {
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private readonly pending = new Map<number, { resolve: (screen: FirstScreen) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  private nextId = 1;
  /**
   * The descriptor lists handed to the thread, by id: a role's list is the same array for the
   * server's life (until the descriptors reload), so the thread gets it once and each render names
   * it (it is some 90 KB of JSON, copied into and out of a message at every render otherwise).
   */
  private readonly entityListIds = new WeakMap<object, number>();
  private nextEntityListId = 1;
  /** The ids the running thread has, oldest sent first (a new thread starts with none; it keeps the last {@link KEPT_ENTITY_LISTS}). */
  private sentEntityLists = new Set<number>();

  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private readonly idleMs: number | undefined;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly workerFile: string,
    { timeoutMs = 5000, maxWaiting = 4, idleMs }: RendererOptions = {},
  ) {
    this.timeoutMs = timeoutMs;
    this.maxWaiting = maxWaiting;
    this.idleMs = idleMs;
  }

  /** Whether a render thread is up (or starting). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Whether the built render files are there. */
  get available(): boolean {
    return fs.existsSync(this.workerFile);
  }

  /** The first screen's markup and title, or null when it is not rendered (no thread, an error, too slow, too many waiting). */
  async render(input: FirstScreenInput): Promise<FirstScreen | null> {
    if (!this.available || this.pending.size >= this.maxWaiting) return null;
    if (!(await this.start()) || this.pending.size >= this.maxWaiting) return null;
    const id = this.nextId++;
    this.stopWhenIdle();
    return new Promise<FirstScreen>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('the first-screen render took too long'));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.worker!.postMessage(this.message(id, input));
    }).catch(() => null);
  }

  /** The thread's message for a render: the descriptor list by id once the thread has it, the entity by name when it is in that list. */
  private message(id: number, { entities = [], entity, ...input }: FirstScreenInput): FirstScreenMessage {
    let entitiesId = this.entityListIds.get(entities);
    if (entitiesId === undefined) {
      entitiesId = this.nextEntityListId++;
      this.entityListIds.set(entities, entitiesId);
    }
    const known = this.sentEntityLists.has(entitiesId);
    if (!known) {
      this.sentEntityLists.add(entitiesId);
      // Forgotten in the order the thread forgets them.
      while (this.sentEntityLists.size > KEPT_ENTITY_LISTS) this.sentEntityLists.delete(this.sentEntityLists.values().next().value!);
    }
    const listed = entity !== undefined && entities.find((candidate) => candidate.name === entity.name) === entity;
    return { id, input, entitiesId, ...(known ? {} : { entities }), ...(listed ? { entityName: entity.name } : { entity }) };
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    this.failAll(new Error('the server is closing'));
    await worker?.terminate();
  }

  /** (Re)arms the idle stop: {@link idleMs} after the last render asked for, the thread ends. */
  private stopWhenIdle() {
    if (this.idleMs === undefined) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size > 0) return this.stopWhenIdle();
      void this.close();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Starts the thread (once; again after it stopped): whether it is up, once its render code has loaded. */
  start(): Promise<boolean> {
    if (this.ready) return this.ready;
    // Without `--enable-source-maps`: the render module's map (10 MB) would be parsed into the
    // thread's small heap, which it outgrows (the thread then dies at each start); a render's error
    // reaches the server as its message only.
    const execArgv = process.execArgv.filter((flag) => flag !== '--enable-source-maps');
    const worker = new Worker(this.workerFile, { resourceLimits: THREAD_LIMITS, execArgv });
    this.sentEntityLists = new Set();
    // The thread never keeps the process alive on its own.
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<boolean>((resolve) => {
      worker.on('message', (message: { ready?: boolean; id?: number; screen?: FirstScreen; error?: string }) => {
        if (message.ready) return resolve(true);
        const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id!);
        clearTimeout(waiting.timer);
        if (message.screen !== undefined) waiting.resolve(message.screen);
        else waiting.reject(new Error(message.error ?? 'the first-screen render failed'));
      });
      const stop = (error: Error) => {
        if (this.worker !== worker) return;
        // The next render starts a new thread.
        this.worker = null;
        this.ready = null;
        this.failAll(error);
        resolve(false);
      };
      worker.on('error', stop);
      worker.on('exit', (code) => stop(new Error(`the first-screen render thread stopped (${code})`)));
    });
    return this.ready;
  }

  private failAll(error: Error) {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      this.pending.delete(id);
    }
  }
}
