// Reads one request as JSON on stdin, sends it with node:http, prints the response as JSON.
import { request } from 'node:http';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const wanted = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const started = process.hrtime.bigint();
const req = request(wanted.url, { method: wanted.method, headers: wanted.headers }, (res) => {
  const body = [];
  res.on('data', (chunk) => body.push(chunk));
  res.on('end', () => {
    const duration = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(
      JSON.stringify({
        status: res.statusCode,
        headers: res.headers,
        body: Buffer.concat(body).toString('utf8'),
        duration,
      }),
    );
  });
});
req.on('error', (error) => {
  process.stdout.write(JSON.stringify({ status: 0, headers: {}, body: '', duration: 0, error: error.message }));
});
if (wanted.body !== null) req.write(Buffer.from(wanted.body, 'base64'));
req.end();
