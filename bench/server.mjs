// The bench's loopback server, in its own process so timing spawns never block it.
// GET /json: a small JSON body; GET /bytes/N: N bytes streamed in 64 KiB chunks.
import { createServer } from 'node:http';

const json = JSON.stringify({ id: 42, name: 'widget', tags: ['a', 'b'], ok: true });
const chunk = Buffer.alloc(64 * 1024, 'x');
const server = createServer((request, response) => {
  const bytes = /^\/bytes\/(\d+)/.exec(request.url ?? '');
  if (bytes) {
    let left = Number(bytes[1]);
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left });
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!response.write(piece)) return void response.once('drain', pump);
      }
      response.end();
    };
    return pump();
  }
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    response.end(json);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
