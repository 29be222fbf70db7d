import '@radix-ui/themes/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { connectHttpClient } from './auth/session.js';
import { i18nReady } from './i18n.js';
import { createAppRouter } from './router.js';

connectHttpClient();
await i18nReady;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App router={createAppRouter()} />
  </StrictMode>,
);
