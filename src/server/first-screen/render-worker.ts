import { parentPort } from 'node:worker_threads';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { type FirstScreenInput, type FirstScreenMessage, KEPT_ENTITY_LISTS } from '../../shared/first-screen.js';

// The first-screen render's thread (src/server/first-screen/renderer.ts starts it): loads the
// render module built beside it (src/app/ssr/render-first-screen.tsx) and answers one message per
// render, so a render never holds up the server's own thread.

interface RenderModule {
  renderFirstScreen(input: FirstScreenInput): Promise<{ html: string; title: string }>;
}

/** The descriptor lists the server has sent, by id (one per role, a new one when the descriptors reload): the last few. */
const entityLists = new Map<number, ClientEntity[]>();

/** The render's input the message stands for, or a message of what is missing. */
function inputOf(message: FirstScreenMessage): FirstScreenInput | string {
  if (message.entities) {
    entityLists.delete(message.entitiesId);
    entityLists.set(message.entitiesId, message.entities);
    while (entityLists.size > KEPT_ENTITY_LISTS) entityLists.delete(entityLists.keys().next().value!);
  }
  const entities = entityLists.get(message.entitiesId);
  if (!entities) return `no descriptors under id ${message.entitiesId}`;
  const entity = message.entity ?? entities.find((candidate) => candidate.name === message.entityName);
  if (!entity) return `no entity ${message.entityName}`;
  return { ...message.input, entities, entity };
}

const module = (await import(new URL('./first-screen-render.js', import.meta.url).href)) as RenderModule;
parentPort!.on('message', (message: FirstScreenMessage) => {
  const input = inputOf(message);
  if (typeof input === 'string') return parentPort!.postMessage({ id: message.id, error: input });
  module.renderFirstScreen(input).then(
    (screen) => parentPort!.postMessage({ id: message.id, screen }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
parentPort!.postMessage({ ready: true });
