/**
 * A minimal example generator for OpenAPI/JSON Schema: explicit examples first, then a
 * value built from the type (required properties, the first enum value, formats).
 */

type Schema = Record<string, unknown>;

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00',
  duration: 'PT1H',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': '/path',
  iri: 'https://example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'c3RyaW5n',
  binary: '',
  password: 'password',
  regex: '.*',
  'json-pointer': '/a',
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((entry) => entry !== 'null') as string | undefined) ?? 'null';
  if (typeof type === 'string') return type;
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** An example value for a schema (undefined when the schema says nothing). */
export function exampleFromSchema(schema: unknown, stack: Set<unknown> = new Set(), depth = 0): unknown {
  if (!isSchema(schema)) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  // A schema met again on the way down is a cycle: stop with an empty value.
  if (stack.has(schema) || depth > 8) return typeOf(schema) === 'array' ? [] : typeOf(schema) === 'object' ? {} : null;
  stack.add(schema);
  try {
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const parts = schema.allOf.map((part) => exampleFromSchema(part, stack, depth + 1));
      if (parts.every((part) => isSchema(part) || part === undefined)) {
        const own = isSchema(schema.properties)
          ? exampleFromSchema({ ...schema, allOf: undefined }, stack, depth + 1)
          : {};
        return Object.assign({}, ...parts.filter(isSchema), isSchema(own) ? own : {});
      }
      return parts.find((part) => part !== undefined);
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key];
      if (Array.isArray(options) && options.length > 0) {
        const choice = options.find((option) => !(isSchema(option) && option.type === 'null')) ?? options[0];
        return exampleFromSchema(choice, stack, depth + 1);
      }
    }
    switch (typeOf(schema)) {
      case 'object': {
        const properties = isSchema(schema.properties) ? schema.properties : {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        const keys = required.length > 0 ? required : Object.keys(properties);
        const out: Record<string, unknown> = {};
        for (const key of keys) {
          const property = properties[key];
          if (isSchema(property) && property.readOnly === true) continue;
          const value = exampleFromSchema(property ?? {}, stack, depth + 1);
          out[key] = value === undefined ? 'string' : value;
        }
        return out;
      }
      case 'array': {
        const item = exampleFromSchema(schema.items, stack, depth + 1);
        return item === undefined ? [] : [item];
      }
      case 'string': {
        const format = typeof schema.format === 'string' ? schema.format : '';
        if (format in STRING_FORMATS) return STRING_FORMATS[format];
        const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
        return 'string'.padEnd(minLength, 'x');
      }
      case 'integer':
      case 'number': {
        const minimum =
          typeof schema.minimum === 'number'
            ? schema.minimum
            : typeof schema.exclusiveMinimum === 'number'
              ? schema.exclusiveMinimum + 1
              : undefined;
        const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
        let value = minimum ?? (maximum !== undefined && maximum < 0 ? maximum : 0);
        if (typeOf(schema) === 'integer') value = Math.ceil(value);
        return value;
      }
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return undefined;
    }
  } finally {
    stack.delete(schema);
  }
}
