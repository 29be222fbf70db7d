import { registry } from '../registry/client.js';
import { Shell } from './shell.js';

export const Start = () => <Shell items={registry.map((_, id) => ({ id }))} />;
