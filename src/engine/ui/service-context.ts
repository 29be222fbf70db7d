import { type Context, createContext, useContext } from 'react';

/**
 * A service the shell provides to the engine through context (a port: the dialogs, the toasts),
 * and the hook that reads it, throwing when no provider is above the caller.
 *
 * @example export const [DialogContext, useDialogs] = createServiceContext<DialogApi>('useDialogs', 'DialogProvider');
 */
export function createServiceContext<T>(hook: string, provider: string): readonly [Context<T | null>, () => T] {
  const ServiceContext = createContext<T | null>(null);
  const useService = (): T => {
    const api = useContext(ServiceContext);
    if (!api) throw new Error(`${hook}() needs a <${provider}> above it.`);
    return api;
  };
  return [ServiceContext, useService] as const;
}
