// Loaded with `node --import` by benchmarks: on exit, writes the process's peak RSS and CPU time to the file named by
// PIE_BENCH_USAGE_FILE, so a benchmark measures the real `pie` process rather than itself.
import { writeFileSync } from 'node:fs';

const target = process.env.PIE_BENCH_USAGE_FILE;
if (target) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({ maxRssKb: u.maxRSS, userMicros: u.userCPUTime, systemMicros: u.systemCPUTime }),
    );
  });
}
