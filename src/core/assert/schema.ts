/** `?? body schema ./x.schema.json`: JSON Schema validation through ajv, imported on first use. */
import { readFile } from 'node:fs/promises';
import { DialError } from '../errors.js';

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null;
};
const validators = new Map<string, Promise<Validator>>();

async function compile(path: string): Promise<Validator> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new DialError('E_NOT_FOUND', `JSON Schema file not found: ${path}`, {
      hint: 'the schema path is relative to the .http file',
    });
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new DialError(
      'E_SCHEMA',
      `JSON Schema ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const module = (await import('ajv')) as unknown as { default: unknown };
  // ajv is CommonJS: depending on the loader its class is the default export or default.default.
  const AjvClass = ((module.default as { default?: unknown }).default ?? module.default) as new (
    options: Record<string, unknown>,
  ) => { compile(schema: unknown): Validator };
  const ajv = new AjvClass({ allErrors: true, strict: false, validateFormats: false });
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new DialError(
      'E_SCHEMA',
      `JSON Schema ${path} is invalid: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Validates a value against the schema file at an absolute path; answers the error lines (empty = valid). */
export async function validateSchema(schemaPath: string, value: unknown): Promise<string[]> {
  let validator = validators.get(schemaPath);
  if (!validator) {
    validator = compile(schemaPath);
    validators.set(schemaPath, validator);
    validator.catch(() => validators.delete(schemaPath));
  }
  const validate = await validator;
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 20).map((error) => {
    const where =
      error.instancePath === ''
        ? '$'
        : `$${error.instancePath.replace(/\/([^/]*)/g, (_, key: string) => (/^\d+$/.test(key) ? `[${key}]` : `.${key}`))}`;
    const extra =
      error.params && 'additionalProperty' in error.params ? ` '${String(error.params.additionalProperty)}'` : '';
    return `${where}: ${error.message ?? 'invalid'}${extra}`;
  });
}
