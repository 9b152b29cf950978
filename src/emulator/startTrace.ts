// DAM_EMULATOR_TRACE_START=1: each step of a start on stderr, with the time since the process began and the CPU the
// process (all its threads) used so far. For finding where a start's time goes (issue 37); silent otherwise.
const tracing = process.env.DAM_EMULATOR_TRACE_START === '1';

export function startMark(step: string): void {
  if (!tracing) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`start: ${step}: ${performance.now().toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
}
