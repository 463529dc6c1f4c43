import type { Logger } from '../shared/ports.js';
import type { ViewsService } from './views.service.js';

/** The periodic flush of the worker role; stop() flushes once more so a shutdown loses no views. */
export class ViewFlushWorker {
  readonly name = 'view-count-flush';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly views: ViewsService,
    private readonly intervalSeconds: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalSeconds * 1000);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.tick();
  }

  private async tick(): Promise<void> {
    try {
      await this.views.flush();
    } catch (err) {
      this.logger.warn({ event: 'views.flush.retry_later', err }, 'view flush failed; retried next interval');
    }
  }
}
