import type { DecisionInput } from "../decision-log/record.js";
import type { DecisionSink } from "../proxy/pipeline.js";

/** Sees every decision as it goes to the log: the console's live stream, metrics, session statistics. */
export type DecisionObserver = (decision: DecisionInput, at: number) => void;

/**
 * One place every decision passes on its way to the log. Observers run after the line is handed to the writer, so
 * what they see is what the log holds; one that throws is cut off from nothing else (the decision is still written).
 * With no observer the tap costs a length check.
 */
export class DecisionFeed {
  private observers: DecisionObserver[] = [];

  add(observer: DecisionObserver): () => void {
    this.observers = [...this.observers, observer];
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
    };
  }

  get size(): number {
    return this.observers.length;
  }

  /** A sink that writes to `sink` and then shows the decision to every observer. */
  tap(sink: DecisionSink): DecisionSink {
    const observers = () => this.observers;
    return {
      write(input: DecisionInput): unknown {
        const written = sink.write(input);
        const list = observers();
        if (list.length === 0) return written;
        const at = Date.now();
        for (const o of list) {
          try {
            o(input, at);
          } catch {
            // an observer's failure is its own: the decision is written and the others still see it
          }
        }
        return written;
      },
      barrier: sink.barrier ? (then: () => void, failed: () => void) => sink.barrier?.(then, failed) : undefined,
      get failure() {
        return sink.failure;
      },
    };
  }
}
