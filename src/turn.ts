/**
 * The turn of one input (a chunk read from a stdio pipe, an agent's HTTP POST body, the answer a POST awaited from an
 * HTTP upstream): work that must follow everything the input causes — the decision lines of what it decided, their
 * commit to the log, then the writes of what they let go on — runs at the end of that turn, in order, before the
 * handler returns: the input's messages are judged, logged and forwarded in one go, with no event-loop or microtask
 * hop in between. Outside a turn (an upstream's progress or later stream events, a guardian that answered later) the
 * same work runs in a microtask, so a burst read at once shares one commit.
 */
let depth = 0;
let queue: (() => void)[] = [];

/** Runs `handle` as a turn: what it defers with `atTurnEnd` (and what that defers in turn) runs when it returns. */
export function inTurn(handle: () => void): void {
  depth++;
  try {
    handle();
  } finally {
    if (depth === 1) runDeferred();
    depth--;
  }
}

/** Runs `fn` at the end of the current turn, after what was deferred before it; outside a turn, in a microtask. */
export function atTurnEnd(fn: () => void): void {
  if (depth > 0) queue.push(fn);
  else queueMicrotask(fn);
}

function runDeferred(): void {
  for (let i = 0; i < queue.length; i++) {
    try {
      (queue[i] as () => void)();
    } catch (e) {
      // As separate microtasks would: one that throws does not keep the others from running.
      const rest = queue.slice(i + 1);
      queue = [];
      for (const fn of rest) queueMicrotask(fn);
      throw e;
    }
  }
  queue = [];
}
