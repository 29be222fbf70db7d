import { ERROR_CODES } from '../../shared/api-contract.js';

/** One field's problem (`FieldError` of the API contract). */
export const FIELD_ERROR_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'keyword', 'messageKey', 'params'],
  properties: {
    path: { type: 'string', description: "Dotted path of the field ('name', 'links.0.url'); '' for the whole body." },
    keyword: { type: 'string', description: "The rule that failed ('required', 'maxLength', 'unique')." },
    messageKey: { type: 'string', description: 'i18n key of the message the console shows.' },
    params: { type: 'object', additionalProperties: true, description: "The rule's parameters ({limit: 100})." },
  },
} as const;

/** Every error answer of the API (`ApiErrorBody`). */
export const ERROR_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable code the client switches on.' },
    message: { type: 'string', description: 'English, for logs and API users; never a stack trace.' },
    errors: { type: 'array', items: FIELD_ERROR_SCHEMA, description: 'Every field error at once (422 VALIDATION, some 400 and 409).' },
  },
} as const;
