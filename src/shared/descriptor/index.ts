export * from './types.js';
export { DescriptorError } from './descriptor-error.js';
export { loadEntities, type EntitySource, type LoadOptions } from './load-entities.js';
export { toClientEntity, canPerform } from './client-entity.js';
export { createAjv } from './create-ajv.js';
export { EMAIL_PATTERN, lengthBeforePattern } from './length-first.js';
export { fieldKind, baseType, isNullable, isTextual, isSortable, type FieldKind } from './schema-fields.js';
export { RESERVED_PARAMS } from './check-descriptor.js';
export { checkComparisons, compareHolds } from './comparisons.js';
