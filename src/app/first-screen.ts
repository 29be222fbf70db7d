/**
 * The event the app fires on `window` once its first screen is in the document: the boot script
 * (src/app/boot.ts) holds back what the first screen does not need until then.
 */
export const FIRST_SCREEN_EVENT = 'ac:first-screen';

/** Where the boot script leaves the promise of its first screen (`globalThis`; the two are separate bundles). */
export const FIRST_SCREEN_KEY = '__acFirstScreen';

/** Where the boot script leaves what the user did on the server's first screen that the app must carry on (`globalThis`). */
export const FIRST_SCREEN_INTENTS_KEY = '__acFirstScreenIntents';

/** The attribute the boot script puts on the server's first screen (the app's first render removes it with the screen). */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';

/**
 * Where an element of the first screen is, said so that the app's own render of the same screen
 * has it too: its tag, its name (form field name, id, label or text) and which of the elements
 * with that tag and name it is, in document order. The server renders the app's own components, so
 * the app's screen has the same elements; wrappers around them may differ, which a path of child
 * indexes would not survive, and generated ids (`useId`) differ between the two renders.
 */
export interface ElementLocator {
  tag: string;
  name: string;
  nth: number;
}

/** What the user did on the server's first screen before the app took it over, in order. */
export type FirstScreenIntent =
  | { kind: 'click'; at: ElementLocator }
  /** A link or page followed while the app was making its router: opened through the router's own history listener. */
  | { kind: 'navigate'; href: string }
  | { kind: 'submit'; at: ElementLocator }
  | { kind: 'value'; at: ElementLocator; value: string; checked?: boolean };

/** What the boot script keeps for the app on `globalThis` ({@link FIRST_SCREEN_INTENTS_KEY}). */
export interface FirstScreenState {
  intents: FirstScreenIntent[];
  /** The element of the first screen that has the focus, if any. */
  focus: ElementLocator | null;
  /** Set once the app is making its router: from then on, the boot script only notes what the user does. */
  appStarting: boolean;
}

/** The state the boot script and the app share (made by whichever asks first). */
export function firstScreenState(): FirstScreenState {
  const store = globalThis as { [FIRST_SCREEN_INTENTS_KEY]?: FirstScreenState };
  return (store[FIRST_SCREEN_INTENTS_KEY] ??= { intents: [], focus: null, appStarting: false });
}

/** The name {@link ElementLocator} uses for an element. */
function nameOf(element: Element): string {
  return (
    element.getAttribute('name') ??
    element.getAttribute('aria-label') ??
    element.getAttribute('href') ??
    element.getAttribute('placeholder') ??
    (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)
  );
}

/** Where `element` is within `root` (see {@link ElementLocator}). */
export function locate(root: Element, element: Element): ElementLocator {
  const tag = element.tagName.toLowerCase();
  const name = nameOf(element);
  let nth = 0;
  for (const candidate of root.querySelectorAll(tag)) {
    if (candidate === element) break;
    if (nameOf(candidate) === name) nth++;
  }
  return { tag, name, nth };
}

/** The element `at` names within `root`, if it has one. */
export function find(root: Element, at: ElementLocator): HTMLElement | null {
  let nth = 0;
  for (const candidate of root.querySelectorAll(at.tag)) {
    if (nameOf(candidate) !== at.name) continue;
    if (nth++ === at.nth) return candidate as HTMLElement;
  }
  return null;
}

/**
 * Resolves once the boot script's first screen is shown (and painted) or will not be (no session,
 * no list, an error), or after `capMs`: at once when the boot script asked for none.
 */
export async function firstScreenSettled(capMs: number): Promise<void> {
  const pending = (globalThis as { [FIRST_SCREEN_KEY]?: Promise<boolean> })[FIRST_SCREEN_KEY];
  if (!pending) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const shown = await Promise.race([pending.catch(() => false), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), capMs)))]);
  clearTimeout(timer);
  // A frame for the browser to paint it before the app's code keeps the main thread busy (a tab in
  // the background paints no frames: then a tenth of a second).
  if (shown) await afterNextFrame(100);
}

/** Resolves once the browser has drawn its next frame (what is in the document now), or after `capMs` (a tab in the background draws none). */
export function afterNextFrame(capMs: number): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, capMs);
  });
}

/** Tells the boot script the app is making its router: from now on it only notes what the user does on its screen. */
export function takeOverFirstScreen(): FirstScreenState {
  const state = firstScreenState();
  state.appStarting = true;
  return state;
}

/** How long the app's screen has to show an element an intent names before the intent is dropped (a busy machine is slow). */
const REPLAY_WAIT_MS = 30_000;

/**
 * Carries what the user did on the server's first screen over to the app's own screen once it has
 * replaced it: typed values (set as the user would, so the app's handlers see them), clicks and
 * form submissions in the order they were made, then the focus. Each waits until the app's screen
 * shows its element (a screen may first show its loading state), for at most ten seconds.
 */
export async function replayFirstScreenIntents(root: HTMLElement, state: FirstScreenState): Promise<void> {
  // The server's screen is gone once no element of the root carries its mark.
  if (!(await until(root, () => !root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)))) return;
  const { intents } = state;
  const focus = state.focus;
  state.focus = null;
  for (let i = 0; i < intents.length; i++) {
    const intent = intents[i]!;
    if (intent.kind === 'navigate') {
      // The router listens to the browser's history: the address changes as a back or forward would.
      // The entry in the form the router's history keeps (its index one further), as its own navigation would leave it.
      const index = (window.history.state as { idx?: number } | null)?.idx;
      const entry = { usr: null, key: Math.random().toString(36).slice(2, 10), idx: typeof index === 'number' ? index + 1 : 0 };
      window.history.pushState(entry, '', intent.href);
      window.dispatchEvent(new PopStateEvent('popstate', { state: entry }));
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      continue;
    }
    // A value typed after a click that is still to be replayed waits for it: the order is the user's.
    const element = await until(root, () => find(root, intent.at));
    if (!element) continue;
    if (intent.kind === 'value') setValue(element, intent.value, intent.checked);
    else if (intent.kind === 'submit') (element as HTMLFormElement).requestSubmit?.();
    else press(element);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  intents.length = 0;
  if (focus && document.activeElement === document.body) (await until(root, () => find(root, focus)))?.focus();
}

/** Waits for `test` to give something, watching the root's changes, for at most {@link REPLAY_WAIT_MS}. */
function until<T>(root: HTMLElement, test: () => T): Promise<T | null> {
  const found = test();
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const value = test();
      if (!value) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(value);
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(null);
    }, REPLAY_WAIT_MS);
    observer.observe(root, { childList: true, subtree: true, attributes: true });
  });
}

/** A pointer press as a mouse makes it (menus and selects open on the press, buttons act on the click). */
function press(element: HTMLElement) {
  const init = { bubbles: true, cancelable: true, composed: true, button: 0, buttons: 1, view: window };
  element.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mousedown', init));
  element.dispatchEvent(new PointerEvent('pointerup', { ...init, buttons: 0, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mouseup', { ...init, buttons: 0 }));
  element.click();
}

/** Sets a field's value the way typing does: through the element's own setter, then an input event (React listens to it). */
function setValue(element: HTMLElement, value: string, checked?: boolean) {
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
    if (checked !== undefined && element.checked !== checked) element.click();
    return;
  }
  const prototype =
    element instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : element instanceof HTMLSelectElement
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (!setter || (element as HTMLInputElement).value === value) return;
  setter.call(element, value);
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
}
