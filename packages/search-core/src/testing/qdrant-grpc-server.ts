import {
  Server as GrpcServer,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';
import { type DecodedUpsert, decodeUpsert } from './qdrant-upsert-decoding.js';

/** A gRPC call the fake received: its method and the `api-key` metadata it carried. */
export type FakeGrpcCall = { method: string; apiKey: string | undefined };

/**
 * Qdrant's gRPC `Points/Upsert` and `Qdrant/HealthCheck` on a loopback port, decoding the request
 * field by field as Qdrant's `points.proto` lays it out (any field lme does not send is refused,
 * so a message written differently shows).
 */
export async function startGrpc(handlers: {
  upsert(request: DecodedUpsert, apiKey: string | undefined): number | { code: status; details: string };
  version: string;
  calls: FakeGrpcCall[];
}): Promise<{ url: string; server: GrpcServer }> {
  const server = new GrpcServer();
  const bytes = {
    serialize: (value: Uint8Array) => Buffer.from(value),
    deserialize: (value: Buffer) => value,
  };
  const method = (path: string) => ({
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  });
  const apiKeyOf = (call: ServerUnaryCall<Buffer, Uint8Array>) => {
    const value = call.metadata.get('api-key')[0];
    return value === undefined ? undefined : String(value);
  };
  server.addService(
    { Upsert: method('/qdrant.Points/Upsert'), HealthCheck: method('/qdrant.Qdrant/HealthCheck') },
    {
      Upsert(call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) {
        const apiKey = apiKeyOf(call);
        handlers.calls.push({ method: '/qdrant.Points/Upsert', apiKey });
        let request: DecodedUpsert;
        try {
          request = decodeUpsert(call.request);
        } catch (error) {
          return callback({ code: status.INVALID_ARGUMENT, details: (error as Error).message });
        }
        const outcome = handlers.upsert(request, apiKey);
        if (typeof outcome !== 'number') return callback(outcome);
        // PointsOperationResponse { result = 1 { operation_id = 1, status = 2 }, time = 2 }
        const writer = protobuf.Writer.create();
        writer.uint32(10).fork().uint32(8).uint64(1).uint32(16).uint32(outcome).ldelim();
        writer.uint32(17).double(0.001);
        callback(null, writer.finish());
      },
      HealthCheck(call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) {
        handlers.calls.push({ method: '/qdrant.Qdrant/HealthCheck', apiKey: apiKeyOf(call) });
        const writer = protobuf.Writer.create();
        writer.uint32(10).string('qdrant - vector search engine').uint32(18).string(handlers.version);
        callback(null, writer.finish());
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { url: `http://127.0.0.1:${port}`, server };
}
