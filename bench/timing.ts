// Timing for the model benches: wall and CPU ms per call. CPU is user + system of the whole process,
// so onnxruntime's pool threads count; on a loaded machine it is the steadier of the two figures.

/** Wall and CPU ms per call of `fn`, which makes `calls` calls, over `rounds` rounds (after one untimed round). */
export async function timePerCall(calls: number, rounds: number, fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  await fn();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall: wall / (rounds * calls), cpu: (cpu.user + cpu.system) / 1000 / (rounds * calls) };
}
