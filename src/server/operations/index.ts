export { createRegistry, type EntityRegistry, type OperationContext, readableFields, storedFields } from './context.js';
export type { CountStrategy } from './count.js';
export { create } from './create.js';
export { etagOf, ifMatchSatisfied } from './etag.js';
export { type ListInput, type ListResult, list } from './list.js';
export { parseInclude, type ReadInput, read } from './read.js';
export { parseRecordId } from './record-id.js';
export { remove } from './remove.js';
export { StaleRecordError, type UpdateInput, update } from './update.js';
