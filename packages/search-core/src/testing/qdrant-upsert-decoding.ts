import protobuf from 'protobufjs/minimal.js';

/** An `UpsertPoints` request as the fake reads it. */
export type DecodedUpsert = {
  collection: string;
  wait: boolean;
  points: { id: string; vector: number[]; payload: Record<string, unknown> }[];
};

/** Reads a message's fields; `field` returns false for one it does not know, which is an error. */
function fields(
  bytes: Uint8Array,
  what: string,
  field: (number: number, reader: protobuf.Reader) => boolean,
) {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const key = reader.uint32();
    if (!field(key >>> 3, reader))
      throw new Error(`fake qdrant: unexpected field ${key >>> 3} (wire type ${key & 7}) in ${what}`);
  }
}

/** Decodes `UpsertPoints` field by field as Qdrant's `points.proto` lays it out; an unknown field is an error. */
export function decodeUpsert(bytes: Uint8Array): DecodedUpsert {
  const request: DecodedUpsert = { collection: '', wait: false, points: [] };
  fields(bytes, 'UpsertPoints', (number, reader) => {
    if (number === 1) request.collection = reader.string();
    else if (number === 2) request.wait = reader.bool();
    else if (number === 3) request.points.push(decodePoint(reader.bytes()));
    else return false;
    return true;
  });
  return request;
}

function decodePoint(bytes: Uint8Array): DecodedUpsert['points'][number] {
  const point: DecodedUpsert['points'][number] = { id: '', vector: [], payload: {} };
  fields(bytes, 'PointStruct', (number, reader) => {
    if (number === 1)
      fields(reader.bytes(), 'PointId', (inner, idReader) => {
        if (inner !== 2) return false;
        point.id = idReader.string();
        return true;
      });
    else if (number === 3) {
      let key = '';
      let value: unknown;
      fields(reader.bytes(), 'payload entry', (inner, entry) => {
        if (inner === 1) key = entry.string();
        else if (inner === 2) value = decodeValue(entry.bytes());
        else return false;
        return true;
      });
      point.payload[key] = value;
    } else if (number === 4)
      fields(reader.bytes(), 'Vectors', (inner, vectors) => {
        if (inner !== 1) return false;
        fields(vectors.bytes(), 'Vector', (kind, vector) => {
          if (kind !== 101) return false;
          fields(vector.bytes(), 'DenseVector', (data, dense) => {
            if (data !== 1) return false;
            const packed = dense.bytes();
            const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
            for (let at = 0; at < packed.byteLength; at += 4) point.vector.push(view.getFloat32(at, true));
            return true;
          });
          return true;
        });
        return true;
      });
    else return false;
    return true;
  });
  return point;
}

function decodeValue(bytes: Uint8Array): unknown {
  let value: unknown = null;
  fields(bytes, 'Value', (number, reader) => {
    if (number === 2) value = reader.double();
    else if (number === 3) value = Number(reader.int64());
    else if (number === 4) value = reader.string();
    else if (number === 5) value = reader.bool();
    else return false;
    return true;
  });
  return value;
}
