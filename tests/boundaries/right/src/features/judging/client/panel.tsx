import { list } from '../../../engine/index.js';
import { resultsClient } from '../../results/client.js';
import { contract } from '../index.js';

export const Panel = () => <p>{list([{ id: 1 }].filter(contract)).join(resultsClient)}</p>;
