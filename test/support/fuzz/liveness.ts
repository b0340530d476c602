import { Worker } from 'node:worker_threads';

/** A /healthz answer that came too late (or not at all): when it was asked, and how long it took. */
export interface SlowPoll {
  started: number;
  ms: number;
  failure?: string;
}

export interface LivenessReport {
  polls: number;
  slowestMs: number;
  slow: SlowPoll[];
}

/** A poller of /healthz on its own thread while the fuzz runs (liveness-worker.ts). */
export class LivenessPoller {
  private readonly worker: Worker;
  private readonly slow: SlowPoll[] = [];
  private readonly finished: Promise<LivenessReport>;
  /** Settles once the poller's first request is answered; polls from then on count. */
  readonly ready: Promise<void>;

  constructor(base: string, options: { intervalMs: number; limitMs: number }) {
    this.worker = new Worker(new URL('./liveness-worker.ts', import.meta.url), {
      workerData: { url: `${base}/healthz`, ...options },
    });
    let ready!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.finished = new Promise((resolve, reject) => {
      this.worker.on('message', (message: { kind: string } & SlowPoll & { polls: number; slowest: number }) => {
        if (message.kind === 'ready') ready();
        else if (message.kind === 'slow')
          this.slow.push({
            started: message.started,
            ms: message.ms,
            ...(message.failure ? { failure: message.failure } : {}),
          });
        else resolve({ polls: message.polls, slowestMs: message.slowest, slow: this.slow });
      });
      this.worker.on('error', reject);
    });
  }

  async stop(): Promise<LivenessReport> {
    this.worker.postMessage('stop');
    const report = await this.finished;
    await this.worker.terminate();
    return report;
  }
}
