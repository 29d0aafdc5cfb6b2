// Preloaded into a measured process (node --require): writes its peak RSS in bytes to
// $DIAL_BENCH_RSS_FILE when it exits, so the bench reads the real process's high-water mark.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  if (process.env.DIAL_BENCH_RSS_FILE) writeFileSync(process.env.DIAL_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
