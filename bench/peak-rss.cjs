// Preloaded into a measured process (node --require): writes its peak RSS in bytes, and the size
// V8's young generation reached, to $DIAL_BENCH_RSS_FILE when it exits, so the bench reads the
// real process's high-water mark and can tell heap sizing apart from retained data.
const { writeFileSync } = require('node:fs');
const { getHeapSpaceStatistics } = require('node:v8');
process.on('exit', () => {
  if (!process.env.DIAL_BENCH_RSS_FILE) return;
  const youngGeneration = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  writeFileSync(process.env.DIAL_BENCH_RSS_FILE, `${process.resourceUsage().maxRSS * 1024} ${youngGeneration}`);
});
