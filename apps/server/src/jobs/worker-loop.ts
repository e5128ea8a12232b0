/**
 * A background worker's loop: runs `step()` until stopped, sleeping for the delay each step
 * answers; `wake()` cuts the sleep short when this instance has just stored new work (work
 * stored by another instance is found at the next poll).
 */
export abstract class WorkerLoop {
  private running: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  private wakeSleeper: (() => void) | null = null;

  protected constructor(
    private readonly loopName: string,
    private readonly loopLog: { error(obj: object, msg: string): void },
    /** The wait after a failed step. */
    private readonly retryMs: number,
  ) {}

  /** One step of work; answers how long to wait before the next (0: at once). */
  abstract step(): Promise<number>;

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Finishes the work in flight and stops; what is still queued stays for later. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
  }

  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let delay: number;
      try {
        delay = await this.step();
      } catch (err) {
        this.loopLog.error({ err }, `${this.loopName} step failed`);
        delay = this.retryMs;
      }
      if (delay > 0 && !this.stopping) await this.sleep(delay);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}
