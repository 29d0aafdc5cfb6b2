// A small gRPC server to try dial's GRPC requests on (docs/grpc.md), and the one dial's tests
// call: dial.test.Greeter from greeter.proto, with server reflection.
//
//   node examples-grpc/greeter-server.mjs [port]        plaintext on 127.0.0.1 (default port 50051)
//
// It runs from a clone of dial's repository (`npm install` brings @grpc/grpc-js,
// @grpc/proto-loader and @grpc/reflection); Ctrl+C stops it.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** SayHello answers with a greeting; it echoes the x-greeting metadata and sends metadata and a trailer back. */
function sayHello(call, callback) {
  const request = call.request;
  const initial = new grpc.Metadata();
  initial.set('x-served-by', 'greeter-server');
  call.sendMetadata(initial);
  const trailer = new grpc.Metadata();
  trailer.set('x-trailer', 'done');
  callback(
    null,
    {
      message: `Hello ${request.name || 'world'}`,
      index: 0,
      echoed_metadata: String(call.metadata.get('x-greeting')[0] ?? ''),
      mood: request.mood,
      sender_info: request.sender_info,
      labels: request.labels,
      answered_at: { seconds: 1700000000, nanos: 5 },
    },
    trailer,
  );
}

/** StreamGreetings sends `times` greetings (default 3), 50 ms apart. */
function streamGreetings(call) {
  const times = call.request.times || 3;
  let index = 0;
  const next = () => {
    if (call.cancelled) return;
    if (index === times) {
      const trailer = new grpc.Metadata();
      trailer.set('x-trailer', 'done');
      call.end(trailer);
      return;
    }
    index++;
    call.write({ message: `Hello ${call.request.name || 'world'} #${index}`, index });
    setTimeout(next, 50);
  };
  next();
}

/** Fail answers with the status code and message it is asked for. */
function fail(call, callback) {
  const trailer = new grpc.Metadata();
  trailer.set('x-failure', 'as-asked');
  callback({
    code: call.request.code || grpc.status.UNKNOWN,
    details: call.request.detail || 'failed',
    metadata: trailer,
  });
}

/** Collect (client streaming) counts the greetings it gets. */
function collect(call, callback) {
  let count = 0;
  call.on('data', () => count++);
  call.on('end', () => callback(null, { message: `got ${count}`, index: count }));
}

/**
 * Starts the server on host:port (port 0: any free one). `reflection: false` leaves out server
 * reflection (a client then needs greeter.proto), `'v1alpha'` offers only its older version; `tls: { key, cert }` (PEM) serves TLS.
 * Resolves with the port and a close function.
 */
export async function startGreeterServer({ host = '127.0.0.1', port = 0, reflection = true, tls } = {}) {
  const definition = protoLoader.loadSync('greeter.proto', { includeDirs: [here], keepCase: true });
  const greeter = grpc.loadPackageDefinition(definition).dial.test.Greeter;
  const server = new grpc.Server();
  server.addService(greeter.service, {
    SayHello: sayHello,
    StreamGreetings: streamGreetings,
    Fail: fail,
    Collect: collect,
  });
  if (reflection === 'v1alpha') {
    // Only the older reflection version, as servers built before grpc.reflection.v1 offer.
    const onlyV1alpha = {
      addService: (service, implementation) => {
        if (Object.values(service)[0].path.startsWith('/grpc.reflection.v1alpha.'))
          server.addService(service, implementation);
      },
    };
    new ReflectionService(definition).addToServer(onlyV1alpha);
  } else if (reflection) {
    new ReflectionService(definition).addToServer(server);
  }
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }])
    : grpc.ServerCredentials.createInsecure();
  const bound = await new Promise((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, credentials, (error, actual) => (error ? reject(error) : resolve(actual))),
  );
  return {
    port: bound,
    address: `${host}:${bound}`,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
    forceClose: () => server.forceShutdown(),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 50051);
  const { address } = await startGreeterServer({ port });
  console.log(`greeter-server listening on ${address} (plaintext, with reflection); Ctrl+C stops it`);
}
