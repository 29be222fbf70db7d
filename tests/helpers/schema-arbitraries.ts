import fc from 'fast-check';

/** A JSON Schema as found in the OpenAPI document (loose). */
export type Schema = Record<string, any>;

const typesOf = (schema: Schema): string[] => {
  const types = [schema.type].flat().filter(Boolean) as string[];
  if (types.length) return types;
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v: unknown) => (v === null ? 'null' : typeof v)))] as string[];
  if (schema.properties) return ['object'];
  return ['string'];
};

/** Any text: printable ASCII, any Unicode (lone surrogates included) and blanks, within bounds. */
export function text(minLength = 0, maxLength = 40): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ unit: 'grapheme', minLength, maxLength }),
      fc.string({ unit: 'binary', minLength, maxLength }),
      fc.constantFrom(' ', '   ', '\t\n', "'; drop table users; --", '%', '_', '\\', '<script>', '../../etc/passwd', '😀', '\u0000', 'a\u0000b', 'x\u0000'),
    )
    .filter((s) => s.length >= minLength && s.length <= maxLength);
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  // Long limits (10,000) are reached with repetition, not a generated 10,000 characters each time.
  const max = Math.min(schema.maxLength ?? 60, 60);
  const fits = (s: string) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uri':
      return fc.webUrl().filter(fits);
    case 'date':
      return fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern);
    return fc.oneof(fc.stringMatching(re), text(min, Math.max(min, max))).filter((s) => fits(s) && re.test(s));
  }
  const long = schema.maxLength && schema.maxLength > max ? [fc.constant('x'.repeat(schema.maxLength))] : [];
  return fc.oneof(text(min, Math.max(min, max)), ...long).filter(fits);
}

/** A value the schema accepts (best effort: formats and patterns are honoured, not every keyword). */
export function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const options = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -2_147_483_648, max: schema.maximum ?? 2_147_483_647 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true });
      case 'array':
        return fc.array(schema.items ? valid(schema.items, depth + 1) : text(0, 10), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
      case 'object':
        return objectOf(schema, depth);
      default:
        return stringFor(schema);
    }
  });
  return options.length === 1 ? options[0]! : fc.oneof(...options);
}

function objectOf(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (depth > 3 || Object.keys(properties).length === 0)
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.integer(), text(0, 10)), { maxKeys: 3 });
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = valid(property, depth + 1);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name: string) => name in properties) });
}

/** A value the schema refuses, when it can say one: wrong type, out of bounds, not in the enum, bad format. */
export function invalid(schema: Schema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const cases: fc.Arbitrary<unknown>[] = [];
  const wrongTypes: fc.Arbitrary<unknown>[] = [];
  if (!types.includes('string')) wrongTypes.push(text(0, 12));
  if (!types.includes('integer') && !types.includes('number')) wrongTypes.push(fc.oneof(fc.integer(), fc.double()));
  if (!types.includes('boolean')) wrongTypes.push(fc.boolean());
  if (!types.includes('null')) wrongTypes.push(fc.constant(null));
  if (!types.includes('array')) wrongTypes.push(fc.array(fc.integer(), { maxLength: 3 }));
  if (!types.includes('object')) wrongTypes.push(fc.constant({ nested: { deeper: [1, 'two'] } }));
  cases.push(fc.oneof(...wrongTypes));
  if (types.includes('string')) {
    // Twice the limit at most: far past it is the body-size limit's business (and slow-patterns.test.ts's).
    if (typeof schema.maxLength === 'number') cases.push(fc.integer({ min: schema.maxLength + 1, max: schema.maxLength * 2 + 2 }).map((n) => 'y'.repeat(n)));
    if (typeof schema.minLength === 'number' && schema.minLength > 0) cases.push(fc.constant('z'.repeat(schema.minLength - 1)));
    if (Array.isArray(schema.enum)) cases.push(text(1, 20).filter((s) => !schema.enum.includes(s)));
    if (schema.format) cases.push(fc.constantFrom('not a value', '2025-13-45', 'yesterday', 'http//', '@', 'a@'));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number') cases.push(fc.constant(schema.minimum - 1));
    if (typeof schema.maximum === 'number') cases.push(fc.constant(schema.maximum + 1));
    if (types.includes('integer')) cases.push(fc.constantFrom(1.5, -0.25, 1e300));
  }
  return fc.oneof(...cases);
}

/**
 * A request body for a body schema: valid, one field broken, a required field missing, an unknown
 * or prototype-polluting key, or not an object at all. `raw` marks text sent as it is (bad JSON).
 */
export function bodyFor(schema: Schema): fc.Arbitrary<{ kind: string; value: unknown; raw?: boolean }> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const validBody = valid(schema) as fc.Arbitrary<Record<string, unknown> | null>;
  const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object) } : {});
  const arbitraries: fc.Arbitrary<{ kind: string; value: unknown; raw?: boolean }>[] = [
    validBody.map((value) => ({ kind: 'valid', value })),
    fc.oneof(fc.array(fc.integer(), { maxLength: 3 }), text(0, 20), fc.integer(), fc.constant(null)).map((value) => ({ kind: 'not-object', value })),
    fc.constantFrom('{', '{"a":', '[1,]', 'nul', '{"__proto__":{"admin":true}}', '\u00ff\u00fe').map((value) => ({ kind: 'raw', value, raw: true })),
    fc
      .tuple(validBody, fc.constantFrom('not_a_field', 'nul\u0000key'))
      .map(([value, key]) => ({ kind: 'extra-field', value: { ...asObject(value), [key]: 'x' } })),
  ];
  if (names.length) {
    arbitraries.push(
      fc
        .tuple(validBody, fc.constantFrom(...names))
        .chain(([value, name]) => invalid(properties[name]!).map((bad) => ({ kind: `invalid-${name}`, value: { ...asObject(value), [name]: bad } }))),
    );
  }
  if ((schema.required ?? []).length) {
    arbitraries.push(
      fc.tuple(validBody, fc.constantFrom(...(schema.required as string[]))).map(([value, name]) => {
        const copy = asObject(value);
        delete copy[name];
        return { kind: `missing-${name}`, value: copy };
      }),
    );
  }
  return fc.oneof(...arbitraries);
}
