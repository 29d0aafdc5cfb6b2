// Baseline for the run budget: a bare undici loop making the same requests as the
// bench's .http files, checking the same two things (status and a JSON field).
// Usage: node undici-loop.mjs URL COUNT [CONCURRENCY]
import { request } from 'undici';

const [url, countText, concurrencyText = '1'] = process.argv.slice(2);
const count = Number(countText);
let next = 0;
let failures = 0;
async function worker() {
  while (next < count) {
    next++;
    const response = await request(url);
    const body = await response.body.json();
    if (response.statusCode !== 200 || body.id !== 42) failures++;
  }
}
await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
if (failures) process.exitCode = 1;
