import { parentPort } from 'node:worker_threads';

// The first-screen render's thread (src/server/first-screen/renderer.ts starts it): loads the
// render module built beside it (src/app/ssr/render-first-screen.tsx) and answers one message per
// render, so a render never holds up the server's own thread.

interface RenderModule {
  renderFirstScreen(input: unknown): Promise<{ html: string; title: string }>;
}

const module = (await import(new URL('./first-screen-render.js', import.meta.url).href)) as RenderModule;
parentPort!.on('message', (message: { id: number; input: unknown }) => {
  module.renderFirstScreen(message.input).then(
    (screen) => parentPort!.postMessage({ id: message.id, screen }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
parentPort!.postMessage({ ready: true });
