import type { ReactNode } from 'react';
import { createServiceContext } from './service-context.js';

/** Dialog widths; `md` is the default. */
export type DialogSize = 'sm' | 'md' | 'lg' | 'xl' | 'full';

/** The dialog kinds the service knows; any other `type` is an error. */
export type DialogType = 'alert' | 'confirm' | 'custom';

/** What every dialog accepts. Texts are already translated by the caller. */
export interface BaseDialogOptions {
  /** Defaults to a time-based generated id (`dialog-<ms>-<n>`). */
  id?: string;
  title?: ReactNode;
  description?: ReactNode;
  /** An image shown above the text (a same-origin or http(s) URL). */
  img?: string;
  size?: DialogSize;
}

/** One confirm button (default 'OK'); resolves once `onConfirm` has finished, even if it failed. */
export interface AlertOptions extends BaseDialogOptions {
  confirmText?: string;
  /** The corner close button; shown by default. */
  showCloseButton?: boolean;
  onConfirm?: () => unknown;
}

/**
 * Cancel ('No') and confirm ('Yes'). Confirm shows loading, awaits `onConfirm`, closes and
 * resolves true; if `onConfirm` throws, loading stops and the dialog stays open (the promise
 * resolves false). Cancel runs `onCancel`, closes and resolves false.
 */
export interface ConfirmOptions extends BaseDialogOptions {
  confirmText?: string;
  cancelText?: string;
  onConfirm?: () => unknown;
  onCancel?: () => unknown;
}

/** Supplied content and an optional footer; `close(value)` resolves the promise with `value`. */
export interface CustomOptions extends BaseDialogOptions {
  content: ReactNode | ((close: (value?: unknown) => void) => ReactNode);
  footer?: ReactNode | ((close: (value?: unknown) => void) => ReactNode);
}

/** The options of {@link DialogApi.open}: one of the three kinds, tagged by `type`. */
export type DialogOptions = ({ type: 'alert' } & AlertOptions) | ({ type: 'confirm' } & ConfirmOptions) | ({ type: 'custom' } & CustomOptions);

/**
 * The dialog service, implemented by the app's `DialogProvider`.
 *
 * @example if (await dialogs.confirm({ title: t('common.delete'), description: t('...') })) remove();
 */
export interface DialogApi {
  alert(options: AlertOptions): Promise<void>;
  confirm(options: ConfirmOptions): Promise<boolean>;
  custom(options: CustomOptions): Promise<unknown>;
  /** Opens a dialog by `type`; an unknown type rejects with an Error and opens nothing. */
  open(options: DialogOptions): Promise<unknown>;
  /** Closes a dialog by id; an open alert resolves, a confirm resolves false, a custom resolves undefined. */
  close(id: string): void;
}

/** The service in context (null outside a `DialogProvider`), and `useDialogs()`, which throws without one. */
export const [DialogContext, useDialogs] = createServiceContext<DialogApi>('useDialogs', 'DialogProvider');
