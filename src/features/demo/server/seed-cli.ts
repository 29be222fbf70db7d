import { runCli } from '../../../server/index.js';
import { seed } from './seed.js';

// `npm run seed -- --contests N`: see `seed.ts`.
await runCli('seed', (config) => seed(config, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)));
