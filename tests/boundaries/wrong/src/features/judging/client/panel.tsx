import { format } from '../../../app/format.js';
import type { Engine } from '../../../engine/index.js';
import { table } from '../../../engine/list/table.js';
import { grades } from '../server/grades.js';

export const Panel = ({ engine }: { engine: Engine }) => (
  <section title={engine.name}>
    {format(grades.length)} {table}
  </section>
);
