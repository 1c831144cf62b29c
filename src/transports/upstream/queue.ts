import type { HttpRefusal, SendInfo, UpstreamSink } from "../types.js";

const MAX_QUEUED = 1024;

/**
 * Frames sent before an upstream has connected wait here in order. Once it is gone, requests sent to it are
 * answered as failed (never silently dropped); notifications and responses have nobody to tell.
 */
export class SendQueue {
  private readonly queued: [string, SendInfo | undefined][] = [];
  gone: string | null = null;

  constructor(private readonly sink: UpstreamSink) {}

  /** true when the frame was queued or failed; false when the caller should send it now. */
  hold(text: string, info: SendInfo | undefined, connected: boolean): boolean {
    if (this.gone !== null) {
      this.fail(info, this.gone);
      return true;
    }
    if (connected) return false;
    if (this.queued.length >= MAX_QUEUED) this.fail(info, "the upstream is not connected yet and its queue is full");
    else this.queued.push([text, info]);
    return true;
  }

  /** Connected: hand over what waited. */
  drain(send: (text: string, info: SendInfo | undefined) => void): void {
    for (const [text, info] of this.queued.splice(0)) send(text, info);
  }

  /** Gone for good: fail what waited, report once. */
  close(reason: string, report = true): void {
    if (this.gone !== null) return;
    this.gone = reason;
    for (const [, info] of this.queued.splice(0)) this.fail(info, reason);
    if (report) this.sink.closed(reason);
  }

  fail(info: SendInfo | undefined, reason: string, http?: HttpRefusal): void {
    const requests = info?.requests;
    if (requests && requests.length > 0) queueMicrotask(() => this.sink.failed(requests, reason, http));
  }
}
