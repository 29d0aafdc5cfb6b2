/**
 * Just enough of the protocol buffers wire format for the reflection service's messages and
 * the two fields of a FileDescriptorProto dial needs (its name and its imports): strings and
 * bytes (wire type 2) out, varints and length-delimited fields in. The schema itself is
 * decoded by protobufjs.
 */

function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  bytes.push(value);
  return bytes;
}

/** Length-delimited fields: `[fieldNumber, bytes or text]` in order. */
export function encodeFields(fields: ReadonlyArray<readonly [number, Uint8Array | string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [field, value] of fields) {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
    parts.push(Buffer.from([...varint(field * 8 + 2), ...varint(bytes.length)]), bytes);
  }
  return Buffer.concat(parts);
}

/** A message's fields: the length-delimited ones by number in order, and the last value of each varint one. */
export interface DecodedFields {
  bytes: Map<number, Buffer[]>;
  varints: Map<number, number>;
}

/** Reads a message's top-level fields (fixed-width ones are skipped). Throws on a truncated message. */
export function decodeFields(message: Uint8Array): DecodedFields {
  const decoded: DecodedFields = { bytes: new Map(), varints: new Map() };
  const buffer = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let at = 0;
  const readVarint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= buffer.length) throw new Error('truncated protobuf message');
      const byte = buffer[at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = readVarint();
    const field = Math.floor(key / 8);
    const type = key & 7;
    if (type === 0) {
      decoded.varints.set(field, readVarint());
    } else if (type === 1 || type === 5) {
      at += type === 1 ? 8 : 4;
    } else if (type === 2) {
      const length = readVarint();
      if (at + length > buffer.length) throw new Error('truncated protobuf message');
      const list = decoded.bytes.get(field) ?? [];
      list.push(buffer.subarray(at, at + length));
      decoded.bytes.set(field, list);
      at += length;
    } else {
      throw new Error(`unsupported protobuf wire type ${type}`);
    }
  }
  return decoded;
}
