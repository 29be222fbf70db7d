import { useEffect } from 'react';
import { useAuth } from './auth/auth-context.js';

/** The console's Radix Themes settings; light unless the profile asks for dark. */
export const THEME_SETTINGS = { accentColor: 'indigo', grayColor: 'slate', radius: 'medium', scaling: '100%', panelBackground: 'solid' } as const;

/**
 * The appearance from the signed-in admin's preferences (light by default). Also sets the class on
 * `<html>`, so portalled content (dialogs, menus) follows it too.
 */
export function useAppearance(): 'light' | 'dark' {
  const { user } = useAuth();
  const appearance = user?.preferences?.theme === 'dark' ? 'dark' : 'light';
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', appearance === 'dark');
    root.classList.toggle('light', appearance === 'light');
    root.style.colorScheme = appearance;
  }, [appearance]);
  return appearance;
}
