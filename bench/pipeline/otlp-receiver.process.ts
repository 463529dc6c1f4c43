/**
 * The loopback OTLP receiver in its own process, so that receiving the exports does not count in
 * the CPU time of the measured (pipeline) process. Answers `count` with the spans received so far
 * by name (the bodies are decoded only then, outside any timing).
 */
import { OtlpReceiver } from '../../test/peers/otlp-receiver.js';

const receiver = await new OtlpReceiver({ lazy: true }).start();
process.send?.({ url: receiver.url });
process.on('message', (m) => {
  if (m !== 'count') return;
  receiver.decodeHeld();
  const byName: Record<string, number> = {};
  for (const s of receiver.spans) byName[s.name] = (byName[s.name] ?? 0) + 1;
  process.send?.({ byName });
});
process.on('disconnect', () => void receiver.stop().then(() => process.exit(0)));
