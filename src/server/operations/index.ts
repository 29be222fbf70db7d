export { list, type ListInput, type ListResult } from './list.js';
export { read, parseInclude, type ReadInput } from './read.js';
export { create } from './create.js';
export { update, StaleRecordError, type UpdateInput } from './update.js';
export { remove } from './remove.js';
export { createRegistry, readableFields, storedFields, type EntityRegistry, type OperationContext } from './context.js';
export { parseRecordId } from './record-id.js';
export { etagOf, ifMatchSatisfied } from './etag.js';
export type { CountStrategy } from './count.js';
