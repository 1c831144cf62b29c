/** A2A vocabulary the proxy and the rules depend on (A2A 0.3 and 1.0, JSON-RPC binding). */

export type A2aOperation = "send" | "stream" | "get" | "list" | "cancel" | "subscribe" | "push-config" | "push" | "card";

/**
 * An agent's webhook post (a push notification), as guardwire hands it to the guardian: an inbound notification with
 * this method whose params are the posted body. A2A itself gives webhook posts no JSON-RPC method.
 */
export const A2A_PUSH_METHOD = "tasks/pushNotification";

/** Each JSON-RPC method of both versions, normalised: one rule on `operation` covers 0.3 and 1.0. */
const OPERATIONS: Record<string, A2aOperation> = {
  "message/send": "send",
  SendMessage: "send",
  "message/stream": "stream",
  SendStreamingMessage: "stream",
  "tasks/get": "get",
  GetTask: "get",
  "tasks/list": "list",
  ListTasks: "list",
  "tasks/cancel": "cancel",
  CancelTask: "cancel",
  "tasks/resubscribe": "subscribe",
  SubscribeToTask: "subscribe",
  "tasks/pushNotificationConfig/set": "push-config",
  "tasks/pushNotificationConfig/get": "push-config",
  "tasks/pushNotificationConfig/list": "push-config",
  "tasks/pushNotificationConfig/delete": "push-config",
  CreateTaskPushNotificationConfig: "push-config",
  GetTaskPushNotificationConfig: "push-config",
  ListTaskPushNotificationConfigs: "push-config",
  DeleteTaskPushNotificationConfig: "push-config",
  "agent/getAuthenticatedExtendedCard": "card",
  GetExtendedAgentCard: "card",
  "agent/card": "card",
  [A2A_PUSH_METHOD]: "push",
};

export function a2aOperation(method: string | null): A2aOperation | null {
  return method === null ? null : (OPERATIONS[method] ?? null);
}

/** Methods whose answer is a stream of events, each a JSON-RPC response with the request's id. */
export const A2A_STREAMING_METHODS: ReadonlySet<string> = new Set(["message/stream", "SendStreamingMessage", "tasks/resubscribe", "SubscribeToTask"]);

/** The task and context a message, task or event is about, for the log's multi-agent view. */
export function a2aIdsOf(message: Record<string, unknown>): { taskId: string | null; contextId: string | null } {
  const body = (message.result ?? message.params) as Record<string, unknown> | undefined;
  const inner = (body?.message ?? body?.task ?? body?.statusUpdate ?? body?.artifactUpdate ?? body) as Record<string, unknown> | undefined;
  const pick = (k: string): string | null => {
    for (const o of [inner, body]) {
      const v = o?.[k];
      if (typeof v === "string") return v;
    }
    return null;
  };
  // A task's own id is `id`; messages and events name it `taskId`.
  const taskId = pick("taskId") ?? (inner?.kind === "task" || body?.kind === "task" ? pick("id") : null);
  return { taskId, contextId: pick("contextId") };
}

/** Binding names in a card that the proxy carries. */
const JSONRPC = "JSONRPC";
const REST = "HTTP+JSON";

/**
 * The card a caller sees through the proxy: every interface URL leads to the proxy — JSON-RPC to `proxyUrl`, HTTP+JSON
 * (REST) to `proxyUrl` + "rest" — and interfaces the proxy cannot carry (gRPC) are removed, and so are `signatures`,
 * which sign the upstream's URLs and cannot hold for the rewritten card (a client that verifies them would reject it).
 * Returns null for a value that is not an agent card.
 */
export function rewriteAgentCard(card: unknown, proxyUrl: string): Record<string, unknown> | null {
  const urlFor = (binding: unknown) => (binding === JSONRPC ? proxyUrl : binding === REST ? `${proxyUrl}rest` : null);
  if (card === null || typeof card !== "object" || Array.isArray(card)) return null;
  const c = { ...(card as Record<string, unknown>) };
  if (typeof c.name !== "string") return null;
  const has03 = typeof c.url === "string";
  const has10 = Array.isArray(c.supportedInterfaces);
  if (!has03 && !has10) return null;
  delete c.signatures;
  if (has03) {
    c.url = proxyUrl;
    c.preferredTransport = JSONRPC;
    if (Array.isArray(c.additionalInterfaces)) {
      c.additionalInterfaces = (c.additionalInterfaces as Record<string, unknown>[])
        .filter((i) => i && urlFor(i.transport) !== null)
        .map((i) => ({ ...i, url: urlFor(i.transport) }));
    }
  }
  if (has10) {
    c.supportedInterfaces = (c.supportedInterfaces as Record<string, unknown>[])
      .filter((i) => i && urlFor(i.protocolBinding ?? i.transport) !== null)
      .map((i) => ({ ...i, url: urlFor(i.protocolBinding ?? i.transport) }));
  }
  return c;
}

/** Where a card says its JSON-RPC binding is served (0.3 `url`/`additionalInterfaces`, 1.0 `supportedInterfaces`). */
export function jsonRpcUrlOf(card: Record<string, unknown>): string | null {
  return bindingUrlOf(card, JSONRPC);
}

/** Where a card says its HTTP+JSON (REST) binding is served, if it has one. */
export function restUrlOf(card: Record<string, unknown>): string | null {
  return bindingUrlOf(card, REST);
}

function bindingUrlOf(card: Record<string, unknown>, binding: string): string | null {
  const interfaces = [...(Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []), ...(Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : [])] as Record<string, unknown>[];
  const found = interfaces.find((i) => i && (i.protocolBinding ?? i.transport) === binding && typeof i.url === "string");
  if (found) return found.url as string;
  const preferred = card.preferredTransport ?? JSONRPC;
  return preferred === binding && typeof card.url === "string" ? card.url : null;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A REST call as the guardian sees it: the JSON-RPC method it stands for, and whether its answer is a stream. */
export interface RestCall {
  method: string;
  streaming: boolean;
  /** Path parameters (task id, config id) and the query, for the message's params when the call has no body. */
  pathParams: Record<string, string>;
}

/**
 * The HTTP+JSON binding's routes (0.3 under `/v1`, 1.0 without), each named by its JSON-RPC equivalent so the same
 * rules apply to both bindings. A path that is none of them is judged as `rest:<METHOD> <path>` and forwarded if allowed.
 */
export function restCallOf(httpMethod: string, path: string): RestCall {
  const v03 = path.startsWith("/v1/");
  const p = v03 ? path.slice(3) : path;
  const name = (old: string, now: string) => (v03 ? old : now);
  const m = httpMethod.toUpperCase();
  let x: RegExpExecArray | null;
  if (m === "POST" && p === "/message:send") return { method: name("message/send", "SendMessage"), streaming: false, pathParams: {} };
  if (m === "POST" && p === "/message:stream") return { method: name("message/stream", "SendStreamingMessage"), streaming: true, pathParams: {} };
  if ((m === "GET" && p === "/card") || (m === "GET" && p === "/extendedAgentCard")) return { method: name("agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"), streaming: false, pathParams: {} };
  if (m === "GET" && p === "/tasks") return { method: "ListTasks", streaming: false, pathParams: {} };
  if ((x = /^\/tasks\/([^/:]+):cancel$/.exec(p)) && m === "POST") return { method: name("tasks/cancel", "CancelTask"), streaming: false, pathParams: { id: decode(x[1] as string) } };
  if ((x = /^\/tasks\/([^/:]+):subscribe$/.exec(p)) && (m === "GET" || m === "POST")) return { method: name("tasks/resubscribe", "SubscribeToTask"), streaming: true, pathParams: { id: decode(x[1] as string) } };
  if ((x = /^\/tasks\/([^/:]+)$/.exec(p)) && m === "GET") return { method: name("tasks/get", "GetTask"), streaming: false, pathParams: { id: decode(x[1] as string) } };
  if ((x = /^\/tasks\/([^/:]+)\/pushNotificationConfigs(?:\/([^/]+))?$/.exec(p))) {
    const pathParams: Record<string, string> = { taskId: decode(x[1] as string) };
    if (x[2] !== undefined) pathParams.configId = decode(x[2]);
    const which = m === "POST" ? ["set", "CreateTaskPushNotificationConfig"] : m === "DELETE" ? ["delete", "DeleteTaskPushNotificationConfig"] : x[2] === undefined ? ["list", "ListTaskPushNotificationConfigs"] : ["get", "GetTaskPushNotificationConfig"];
    return { method: name(`tasks/pushNotificationConfig/${which[0] as string}`, which[1] as string), streaming: false, pathParams };
  }
  return { method: `rest:${m} ${path}`, streaming: false, pathParams: {} };
}

/** Keys under which a message's own content sits (0.3 and 1.0): never a push config of the request. */
const MESSAGE_CONTENT = new Set(["message", "parts", "history", "artifacts", "artifact", "content"]);

/**
 * Rewrites the callback `url` of every push-notification config in a request's params or a response's result: under
 * `pushNotificationConfig`, `taskPushNotificationConfig`, `config`/`configs`, or a config at the top (1.0's flat
 * `TaskPushNotificationConfig`). `map` returns the new URL, or null to keep it. Returns the same value when nothing
 * changed.
 */
export function mapPushUrls<T>(value: T, map: (url: string, config: Record<string, unknown>) => string | null): T {
  const visit = (v: unknown, isConfig: boolean, depth: number): unknown => {
    if (depth > 6 || v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = visit(x, isConfig, depth + 1);
        changed ||= y !== x;
        return y;
      });
      return changed ? out : v;
    }
    const o = v as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    if (isConfig && typeof o.url === "string") {
      const url = map(o.url, o);
      if (url !== null && url !== o.url) out = { ...o, url };
    }
    for (const [k, x] of Object.entries(o)) {
      // What a message says (its parts, a task's history and artifacts) is content, not the request's configuration:
      // a data part that quotes a push config is delivered as written.
      if (MESSAGE_CONTENT.has(k)) continue;
      const y = visit(x, /push/i.test(k) || k === "config" || k === "configs", depth + 1);
      if (y !== x) (out ??= { ...o })[k] = y;
    }
    return out ?? v;
  };
  return visit(value, isTopConfig(value), 0) as T;
}

function isTopConfig(v: unknown): boolean {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { url?: unknown }).url === "string" && "taskId" in v;
}

/** The ids a send's message carries of its envelope (minted per message, conversation or task), not of what it says. */
const ENVELOPE_IDS = ["messageId", "contextId", "taskId"];

/**
 * What an approval of an A2A send or stream is bound to (docs/approvals.md, "A2A"): its params without the message's
 * own ids, so that the same message sent again (a new `messageId`) is the same call; for other methods, the params.
 */
export function a2aApprovalArgs(method: string, params: unknown): unknown {
  const op = OPERATIONS[method];
  if ((op !== "send" && op !== "stream") || params === null || typeof params !== "object" || Array.isArray(params)) return params ?? null;
  const message = (params as { message?: unknown }).message;
  if (message === null || typeof message !== "object" || Array.isArray(message)) return params;
  const bare: Record<string, unknown> = { ...(message as Record<string, unknown>) };
  for (const k of ENVELOPE_IDS) delete bare[k];
  return { ...(params as Record<string, unknown>), message: bare };
}
