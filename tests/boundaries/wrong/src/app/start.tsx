import { registry } from '../registry/client.js';

export const Start = () => <main>{registry.length}</main>;
