import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { afterAll } from 'vitest';
const g = globalThis as { __profSession?: Session; __profN?: number };
if (!g.__profSession) {
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 1000 });
  await s.post('Profiler.start');
  g.__profSession = s;
  g.__profN = 0;
}
afterAll(async () => {
  const s = g.__profSession!;
  const { profile } = await s.post('Profiler.stop');
  writeFileSync(`/tmp/prof/${process.pid}-${g.__profN!++}.cpuprofile`, JSON.stringify(profile));
  await s.post('Profiler.start');
});
