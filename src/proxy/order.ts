import type { Direction } from "./pipeline.js";

interface Slot {
  done: boolean;
  run: () => void;
}

/**
 * Each direction delivers in the order it received, though judgements may overlap (a remote guardian, a store round
 * trip): a value that is ready while nothing waits runs at once (the embedded guardian's common path pays for no
 * promise); otherwise it waits for every earlier one of its direction.
 */
export class DirectionOrder {
  private readonly queues: Record<Direction, Slot[]> = { outbound: [], inbound: [] };

  enqueue<T>(direction: Direction, value: T | Promise<T>, run: (v: T) => void): void {
    const queue = this.queues[direction];
    if (!(value instanceof Promise) && queue.length === 0) return run(value);
    const slot: Slot = { done: false, run: () => {} };
    queue.push(slot);
    void Promise.resolve(value).then((v) => {
      slot.run = () => run(v);
      slot.done = true;
      while (queue.length > 0 && queue[0]?.done) queue.shift()?.run();
    });
  }
}
