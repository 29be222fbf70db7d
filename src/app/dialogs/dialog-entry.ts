import type { AlertOptions, ConfirmOptions, CustomOptions } from '../../engine/ui/dialog-context.js';

/** One open dialog as the provider keeps it (and the view shows it). */
export type DialogEntry =
  | { id: string; type: 'alert'; options: AlertOptions; isLoading: boolean; settle: () => void }
  | { id: string; type: 'confirm'; options: ConfirmOptions; isLoading: boolean; settle: (value: boolean) => void }
  | { id: string; type: 'custom'; options: CustomOptions; isLoading: boolean; settle: (value: unknown) => void };
