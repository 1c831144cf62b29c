import type { ServerResponse } from "node:http";
import { sseEventParts, SSE_KEEPALIVE } from "../../protocol/sse.js";
import type { EventId, EventStore } from "./event-store.js";
import { eventWriter, SSE_HEADERS } from "./http-util.js";

/** One SSE stream of a session: the standalone GET stream, or the stream a POST switched to. */
export interface Stream {
  /** Its id in the event store, and the start of its event ids. */
  tag: string;
  res: ServerResponse | null;
  /** The stream's request was answered: once written, the stream ends. */
  done: boolean;
  /** No longer resumable: what is written to it is not kept. */
  forgotten: boolean;
  /** The request keys it carries answers for, once cut. */
  keys: string[];
}

/** Cut streams kept for resumption per session. */
const MAX_CUT = 128;

/** What the streams need from their session. */
export interface StreamsHost {
  /** The headers every stream's response starts with besides SSE's (the session id). */
  headers(): Record<string, string>;
  /** The agent was heard from (a stream closed). */
  touch(): void;
  /** Backpressure: some stream's buffer is full (pause the upstream), or none is any more (resume it). */
  pause(): void;
  resume(): void;
}

/**
 * A session's SSE streams: writing events (kept in the event store as they go out, so a cut stream can be resumed
 * with `Last-Event-ID`), the streams cut before their end, and backpressure from a slow reader.
 */
export class SessionStreams {
  /** The GET stream (one at a time, as MCP says); kept for resumption while the session lives. */
  standalone: Stream | null = null;
  /** Streams whose connection dropped before they were done, oldest first: kept for resumption, by tag. */
  private readonly cut = new Map<string, Stream>();
  /** The same streams by the request keys they carry answers for. */
  private readonly cutKeys = new Map<string, Stream>();
  private opened = 0;
  /** Responses whose buffers are full: the upstream is paused while any is. */
  private readonly blocked = new Set<ServerResponse>();
  /** Streams with a response attached now: what the session's end must close. */
  private readonly live = new Set<Stream>();

  constructor(
    private readonly store: EventStore,
    /** Starts every stream's tag: the replica keeping the replay log, for a resumption elsewhere to find it. */
    private readonly prefix: string,
    private readonly host: StreamsHost,
  ) {}

  /** A POST's answer switches to SSE. */
  open(res: ServerResponse): Stream {
    const s = stream(`${this.prefix}p${++this.opened}`);
    this.attach(s, res);
    return s;
  }

  /** GET without Last-Event-ID: the standalone stream; false when one is open already. */
  listen(res: ServerResponse): Stream | null {
    if (this.standalone?.res) return null;
    this.standalone ??= stream(`${this.prefix}g`);
    this.attach(this.standalone, res);
    return this.standalone;
  }

  /** GET with Last-Event-ID: replays what followed that event on its stream, then goes on with it live; false: 404. */
  resume(lastEventId: string, res: ServerResponse): boolean {
    const tag = this.store.streamOf(lastEventId);
    const s = tag === null ? undefined : tag === `${this.prefix}g` ? this.standalone : this.cut.get(tag);
    if (!s || s.res) return false;
    // Events after it that are no longer kept would be skipped without a word: refused instead (the store says so).
    const replay: [EventId, string][] = [];
    if (this.store.replayEventsAfter(lastEventId, (id, text) => replay.push([id, text])) === null) return false;
    this.attach(s, res);
    for (const [id, text] of replay) this.put(s, id, text);
    if (s.done) this.finish(s);
    return true;
  }

  /** The cut stream that carries answers for this request. */
  forKey(key: string): Stream | undefined {
    return this.cutKeys.get(key);
  }

  /** True while the GET stream is open. */
  get listening(): boolean {
    return this.standalone?.res != null;
  }

  keepalive(): void {
    if (this.standalone?.res) eventWriter(this.standalone.res).idleWrite(SSE_KEEPALIVE);
  }

  /** The agent stopped listening to a POST's stream before every answer came: it is kept to be resumed. */
  cutOff(s: Stream, keys: Iterable<string>): void {
    s.res = null;
    if (s.forgotten) return;
    this.cut.set(s.tag, s);
    for (const k of keys) {
      s.keys.push(k);
      this.cutKeys.set(k, s);
    }
    this.store.cut(s.tag);
    // Bounded: an agent that keeps dropping streams cannot make the session keep them all.
    while (this.cut.size > MAX_CUT) {
      const oldest = this.cut.values().next().value as Stream;
      this.uncut(oldest);
      // One resumed and still open is forgotten when it ends.
      if (!oldest.res) this.forget(oldest);
    }
  }

  write(s: Stream, text: string): void {
    if (s.forgotten) return;
    const id = this.store.storeEvent(s.tag, text);
    if (s.res) this.put(s, id, text);
  }

  /** The stream's request is answered: the stream ends, and a POST's is forgotten, once its agent has it all. */
  finish(s: Stream): void {
    s.done = true;
    if (!s.res) return;
    eventWriter(s.res).end();
    s.res = null;
    this.live.delete(s);
    if (s === this.standalone) return;
    this.uncut(s);
    this.forget(s);
  }

  /**
   * The session ends: its open streams are ended, nothing is kept. A cut stream the agent resumed first gets the one
   * answer (`orphan`) of each request it carries, since their own answers will never come.
   */
  endAll(orphan: (key: string) => string): void {
    for (const s of this.live) {
      if (!s.res) continue;
      if (!s.done) for (const k of s.keys) this.write(s, orphan(k));
      eventWriter(s.res).end();
    }
    this.live.clear();
    this.cut.clear();
    this.cutKeys.clear();
  }

  private attach(s: Stream, res: ServerResponse): void {
    res.writeHead(200, { ...SSE_HEADERS, ...this.host.headers() });
    res.flushHeaders();
    s.res = res;
    this.live.add(s);
    res.on("close", () => {
      this.host.touch();
      if (s.res === res) {
        s.res = null;
        this.live.delete(s);
        // A resumed stream dropped again goes on being resumable, unless it was let go of meanwhile.
        if (s !== this.standalone && !this.cut.has(s.tag)) this.forget(s);
      }
      this.unblock(res);
    });
    eventWriter(res, () => this.unblock(res));
  }

  private put(s: Stream, id: EventId, text: string): void {
    const res = s.res as ServerResponse;
    if (!eventWriter(res).write(sseEventParts(text, id)) && !this.blocked.has(res)) {
      // A slow reader: stop reading from the server until the agent catches up.
      this.blocked.add(res);
      if (this.blocked.size === 1) this.host.pause();
    }
  }

  private unblock(res: ServerResponse): void {
    if (this.blocked.delete(res) && this.blocked.size === 0) this.host.resume();
  }

  private uncut(s: Stream): void {
    this.cut.delete(s.tag);
    for (const k of s.keys) if (this.cutKeys.get(k) === s) this.cutKeys.delete(k);
    s.keys = [];
  }

  /** A stream that can no longer be resumed gives its events back to the store's bounds. */
  private forget(s: Stream): void {
    s.forgotten = true;
    this.store.forget(s.tag);
  }
}

function stream(tag: string): Stream {
  return { tag, res: null, done: false, forgotten: false, keys: [] };
}
