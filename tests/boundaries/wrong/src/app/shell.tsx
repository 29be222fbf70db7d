import { registry } from '../registry/client.js';
import { server } from '../server/index.js';
import type { SharedEngine } from '../shared/types.js';

export const Shell = ({ engine }: { engine: SharedEngine }) => (
  <div title={engine.name}>
    {registry.length} {server}
  </div>
);
