// Reference for the concurrency row: the same GETs and the same two checks as
// bench/undici-loop.mjs, over bare keep-alive sockets with no HTTP library, to show where the
// floor lies below the undici loop the budget is measured against. It reads only what
// bench/server.mjs answers (a status line, headers with Content-Length, a JSON body) and fails
// on anything else; it is no HTTP client.
// Usage: node socket-loop.cjs URL COUNT [CONCURRENCY]
'use strict';
const net = require('node:net');

const [url, countText, concurrencyText = '1'] = process.argv.slice(2);
const count = Number(countText);
const target = new URL(url);
const head = `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`;
let next = 0;
let answered = 0;
let failures = 0;

function connection() {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    let buffered = null;
    let bodyStart = -1;
    let bodyLength = 0;
    let status = 0;
    const ask = () => {
      if (next >= count) return void socket.end(resolve);
      next++;
      socket.write(head, 'latin1');
    };
    socket.on('connect', ask);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
      if (bodyStart < 0) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = buffered.toString('latin1', 0, end);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
        if (!headText.startsWith('HTTP/1.1 ') || !length) return void reject(new Error('unexpected answer'));
        status = Number(headText.slice(9, 12));
        bodyLength = Number(length[1]);
        bodyStart = end + 4;
      }
      if (buffered.length - bodyStart < bodyLength) return;
      const body = JSON.parse(buffered.toString('utf8', bodyStart, bodyStart + bodyLength));
      if (status !== 200 || body.id !== 42) failures++;
      answered++;
      buffered = null;
      bodyStart = -1;
      ask();
    });
  });
}

Promise.all(Array.from({ length: Number(concurrencyText) }, connection)).then(
  () => {
    if (failures || answered !== count) process.exitCode = 1;
  },
  (error) => {
    console.error(error.message);
    process.exitCode = 1;
  },
);
