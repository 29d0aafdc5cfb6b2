// Reference floor for the send rows: the least a Node ESM program can do to GET a URL and print it.
import http from 'node:http';
http.get(process.argv[2], (res) => { res.pipe(process.stdout); });
