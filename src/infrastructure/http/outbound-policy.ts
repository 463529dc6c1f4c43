/**
 * The SSRF guard's rules as a yes/no for one URL before anything is fetched (OPML import): the host
 * is resolved (bounded in time) and refused like an item link's. A name that does not resolve now,
 * or not in time, is not judged: nothing is connected to here, and a host that cannot be reached
 * fails its fetches on its own.
 */
import { FetchRefusedError } from '../../application/pipeline/pipeline.ports.js';
import type { OutboundPolicy } from '../../application/catalog/opml.ports.js';
import type { OutboundGuard } from './outbound-guard.js';

export class GuardOutboundPolicy implements OutboundPolicy {
  constructor(
    private readonly guard: OutboundGuard,
    private readonly timeoutMs = 3000,
  ) {}

  async refusal(url: string): Promise<string | null> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return null;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)));
    try {
      return await Promise.race([
        this.guard.addresses(host).then(
          () => null,
          (err: unknown) => (err instanceof FetchRefusedError ? err.message : null),
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
