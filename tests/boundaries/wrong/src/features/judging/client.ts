import { Panel } from './client/panel.js';

export const judgingClient = Panel;
