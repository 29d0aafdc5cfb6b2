#!/usr/bin/env node
// Plays the user's browser in OAuth tests: dial runs it as $BROWSER with the URL to open. It
// follows the sign-in page's redirects (the mock server signs in at once and redirects to
// dial's loopback listener with the code) or opens a device verification page, then exits.
// With OAUTH_USER_LOG set, it appends each URL it was given to that file.
import { appendFileSync } from 'node:fs';

/* global fetch -- Node 20 has fetch built in */
const url = process.argv[2];
if (process.env.OAUTH_USER_LOG) appendFileSync(process.env.OAUTH_USER_LOG, `${url}\n`);
const response = await fetch(url, { redirect: 'follow' });
await response.text();
process.exit(response.ok ? 0 : 1);
