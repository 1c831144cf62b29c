/*
 * The replay log of a Streamable HTTP session's SSE streams: what an agent that reconnects with `Last-Event-ID` is sent
 * again (MCP 2025-03-26 and later, "Resumability and redelivery"). Modelled on the MCP SDK's `EventStore`
 * (server/streamableHttp): `storeEvent` keeps an event and names it, `replayEventsAfter` sends what followed an id.
 *
 * Unlike the SDK's, the calls are synchronous: an event is kept in the order it is written to the agent, on the path
 * of every message, and a replay is sent before the resumed stream goes on live, so nothing can come in between.
 */

/** A stream of a session: `g` (the standalone GET stream) or `p<n>` (a POST's), after the replica's prefix. */
export type StreamId = string;
/** `<stream>.<n>`: the n-th event of that stream, from 1. */
export type EventId = string;

export interface EventStore {
  /** Keeps `text` as the stream's next event; returns the event's id. */
  storeEvent(stream: StreamId, text: string): EventId;
  /**
   * Sends, in order, every event of `lastEventId`'s stream that followed it, and returns that stream; or null, sending
   * nothing, when that cannot be done without a gap: an id that is not one, a stream the store holds nothing of
   * (never written, or forgotten), or events after it no longer kept.
   */
  replayEventsAfter(lastEventId: EventId, send: (id: EventId, text: string) => void): StreamId | null;
  /** The stream an event id names, or null when it names none (no `.<n>` at its end). */
  streamOf(eventId: EventId): StreamId | null;
  /** The stream's agent went away before its end: its events are the first to go when the store is over its bounds. */
  cut(stream: StreamId): void;
  /** The stream can no longer be resumed (it ended, or was let go): its events are dropped, their memory given back. */
  forget(stream: StreamId): void;
}

export interface EventStoreBounds {
  /** Events kept per stream: past it, the stream's oldest goes. */
  eventsPerStream: number;
  /** Characters of event text kept over every stream of the store: past it, the oldest events go (see `MemoryEventStore`). */
  chars: number;
}

/** The bounds `guardwire serve` uses per session (docs/serve.md, Resumption). */
export const DEFAULT_EVENT_STORE_BOUNDS: EventStoreBounds = { eventsPerStream: 256, chars: 16 << 20 };

interface Log {
  /** The last event id number given out. */
  seq: number;
  events: [number, string][];
  /** Characters of text in `events`. */
  chars: number;
  /** The last event no longer kept: a replay from before it cannot be served intact. */
  dropped: number;
  cut: boolean;
}

/**
 * The default store: one per session, in memory. Its memory is bounded by `eventsPerStream` events per stream and by
 * `chars` characters over all streams. Past the characters, the oldest events go first from cut streams (in the
 * order they were cut), then from live ones (oldest stream first), and last from the stream being written, so a big
 * answer cannot keep megabytes alive; an event larger than the whole budget is not kept at all (the agent still gets
 * it live, but a resume from before it is refused). A forgotten stream keeps nothing.
 */
export class MemoryEventStore implements EventStore {
  /** Streams in the order they were created, each cut stream moved to the end when cut. */
  private readonly logs = new Map<StreamId, Log>();
  private total = 0;

  constructor(private readonly bounds: EventStoreBounds = DEFAULT_EVENT_STORE_BOUNDS) {}

  /** Characters kept, over every stream. */
  get chars(): number {
    return this.total;
  }

  storeEvent(stream: StreamId, text: string): EventId {
    let log = this.logs.get(stream);
    if (!log) this.logs.set(stream, (log = { seq: 0, events: [], chars: 0, dropped: 0, cut: false }));
    const seq = ++log.seq;
    log.events.push([seq, text]);
    log.chars += text.length;
    this.total += text.length;
    while (log.events.length > this.bounds.eventsPerStream) this.dropOldest(log);
    if (this.total > this.bounds.chars) this.evict(log);
    return `${stream}.${seq}`;
  }

  replayEventsAfter(lastEventId: EventId, send: (id: EventId, text: string) => void): StreamId | null {
    const stream = this.streamOf(lastEventId);
    if (stream === null) return null;
    const after = Number(lastEventId.slice(stream.length + 1));
    const log = this.logs.get(stream);
    if (!log || !Number.isInteger(after) || after < log.dropped) return null;
    for (const [seq, text] of log.events) if (seq > after) send(`${stream}.${seq}`, text);
    return stream;
  }

  streamOf(eventId: EventId): StreamId | null {
    const dot = eventId.lastIndexOf(".");
    return dot < 0 ? null : eventId.slice(0, dot);
  }

  cut(stream: StreamId): void {
    const log = this.logs.get(stream);
    if (!log || log.cut) return;
    log.cut = true;
    this.logs.delete(stream);
    this.logs.set(stream, log);
  }

  forget(stream: StreamId): void {
    const log = this.logs.get(stream);
    if (!log) return;
    this.total -= log.chars;
    this.logs.delete(stream);
  }

  private evict(writing: Log): void {
    for (const cut of [true, false]) {
      for (const log of this.logs.values()) {
        if (log.cut !== cut || log === writing) continue;
        while (this.total > this.bounds.chars && log.events.length > 0) this.dropOldest(log);
        if (this.total <= this.bounds.chars) return;
      }
    }
    while (this.total > this.bounds.chars && writing.events.length > 0) this.dropOldest(writing);
  }

  private dropOldest(log: Log): void {
    const [seq, text] = log.events.shift() as [number, string];
    log.chars -= text.length;
    this.total -= text.length;
    log.dropped = seq;
  }
}
