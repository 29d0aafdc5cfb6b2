/**
 * Messages as JSON, the way the protobuf JSON mapping writes them (and grpcurl, JetBrains and
 * httpyac show them): fields by their lowerCamelCase JSON names (the names of the .proto are
 * read too), 64-bit integers as strings, enums by name, bytes as base64, maps as objects.
 * A field the message does not have is an error, not silently dropped.
 */
import type * as Protobuf from 'protobufjs';
import { DialError } from '../../errors.js';
import { isObject } from '../../json-object.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Plain = Record<string, unknown>;

function jsonName(field: Protobuf.Field): string {
  return field.name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** A map field as descriptors carry it: repeated `XEntry { key = 1; value = 2; }` (protobufjs keeps no MapField for those). */
function isMapEntry(type: Protobuf.Type): boolean {
  const options = type.options as Record<string, unknown> | undefined;
  if (options?.map_entry === true || options?.mapEntry === true) return true;
  const { key, value } = type.fields;
  return type.fieldsArray.length === 2 && key?.id === 1 && value?.id === 2 && type.name.endsWith('Entry');
}

function messageTypeOf(field: Protobuf.Field): Protobuf.Type | undefined {
  const resolved = field.resolvedType;
  return resolved && 'fieldsArray' in resolved ? (resolved as Protobuf.Type) : undefined;
}

function fieldFor(type: Protobuf.Type, key: string): Protobuf.Field {
  const field = type.fields[key] ?? type.fieldsArray.find((candidate) => jsonName(candidate) === key);
  if (field) return field;
  throw new DialError('E_INPUT', `${type.fullName.replace(/^\./, '')} has no field '${key}'`, {
    hint: `its fields: ${type.fieldsArray.map(jsonName).join(', ') || '(none)'}`,
  });
}

function inputValue(field: Protobuf.Field, value: unknown, path: string): unknown {
  const message = messageTypeOf(field);
  if (field.map) {
    if (!isObject(value)) throw badValue(path, 'an object (a map)');
    if (!message) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, inputObject(message, item, `${path}.${key}`)]),
    );
  }
  if (field.repeated) {
    if (message && isMapEntry(message) && isObject(value)) {
      const valueField = message.fields.value;
      return Object.entries(value).map(([key, item]) => ({
        key,
        value: inputValue(valueField, item, `${path}.${key}`),
      }));
    }
    if (!Array.isArray(value)) throw badValue(path, 'an array');
    return value.map((item, index) => (message ? inputObject(message, item, `${path}[${index}]`) : item));
  }
  return message ? inputObject(message, value, path) : value;
}

function badValue(path: string, expected: string): DialError {
  return new DialError('E_INPUT', `the gRPC request's field ${path} must be ${expected}`);
}

/** JSON (JSON or .proto field names) -> the plain object protobufjs' fromObject reads (.proto names). */
function inputObject(type: Protobuf.Type, value: unknown, path: string): Plain {
  if (!isObject(value)) throw badValue(path || 'message', `an object (${type.fullName.replace(/^\./, '')})`);
  const plain: Plain = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue; // JSON null is the field's default
    const field = fieldFor(type, key);
    plain[field.name] = inputValue(field, item, path ? `${path}.${key}` : key);
  }
  return plain;
}

/** Encodes a request message from its JSON text (an empty body is the empty message). */
export function encodeMessage(type: Protobuf.Type, text: string): Buffer {
  let value: unknown = {};
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DialError('E_INPUT', `the gRPC request body is not JSON: ${(error as Error).message}`, {
        hint: `write the ${type.fullName.replace(/^\./, '')} message as a JSON object`,
      });
    }
  }
  const message = type.fromObject(inputObject(type, value, ''));
  return Buffer.from(type.encode(message).finish());
}

function outputValue(field: Protobuf.Field, value: unknown): Json {
  const message = messageTypeOf(field);
  if (field.map) {
    const entries = Object.entries(value as Plain);
    return Object.fromEntries(
      entries.map(([key, item]) => [key, message ? outputObject(message, item) : (item as Json)]),
    );
  }
  if (field.repeated && Array.isArray(value)) {
    if (message && isMapEntry(message)) {
      const valueField = message.fields.value;
      return Object.fromEntries(
        (value as Plain[]).map((entry) => [String(entry.key), outputValue(valueField, entry.value)]),
      );
    }
    return value.map((item) => (message ? outputObject(message, item) : (item as Json)));
  }
  return message ? outputObject(message, value) : (value as Json);
}

function outputObject(type: Protobuf.Type, value: unknown): Json {
  const plain = value as Plain;
  const json: { [key: string]: Json } = {};
  for (const field of type.fieldsArray) {
    const item = plain[field.name];
    if (item === undefined || item === null) continue;
    json[jsonName(field)] = outputValue(field, item);
  }
  return json;
}

/** Decodes a response message into its JSON form (fields at their defaults included, as JetBrains shows them). */
export function decodeMessage(type: Protobuf.Type, bytes: Uint8Array): Json {
  const message = type.decode(bytes);
  const plain = type.toObject(message, { longs: String, enums: String, bytes: String, defaults: true });
  return outputObject(type, plain);
}
