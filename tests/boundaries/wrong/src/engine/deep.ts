import { Shell } from '../app/shell.js';
import { Panel } from '../features/judging/client/panel.js';

export const deep = [Shell, Panel];
