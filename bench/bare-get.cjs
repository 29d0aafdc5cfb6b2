// Reference floor for the send rows: the least a Node program can do to GET a URL and print it.
// CommonJS, as dial's program is: an ES module would add Node 20's ES module loader (~6 ms).
'use strict';
const http = require('node:http');
http.get(process.argv[2], (res) => res.pipe(process.stdout));
