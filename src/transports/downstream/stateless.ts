import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../protocol/json-rpc.js";
import { acknowledge } from "./http-session.js";
import { httpError } from "./http-util.js";
import { metadataUrl, type PostCarry, type PostFrame } from "./pending-posts.js";
import type { HttpCaller, MakeSession } from "./route-sessions.js";
import { inTurn } from "../../turn.js";

/**
 * Who a sessionless caller is, for the guardian session its calls share (MCP 2026-07-28 exchanges, A2A calls): its
 * key's id, or its address on a route without keys.
 */
export function callerName(req: IncomingMessage, caller: HttpCaller): string {
  return caller.agent?.id ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * MCP 2026-07-28 POSTs on one route: no session on either side, so each is one guarded exchange of its own — judged,
 * sent upstream with its headers, its answer (JSON or a stream) judged on the way back, then let go. A notification
 * is acknowledged, and let go, once the server has it.
 */
export class StatelessExchanges {
  /** Exchanges in flight. */
  count = 0;

  constructor(private readonly make: MakeSession) {}

  /**
   * Takes one POST. Exchanges in flight count against the route's session limit (`held` sessions of `max`): past it,
   * 503, so a flood of them cannot hold unbounded upstreams.
   */
  handle(req: IncomingMessage, res: ServerResponse, caller: HttpCaller, requests: string[], frame: PostFrame, held: number, max: number): void {
    if (held + this.count >= max) {
      return httpError(res, 503, ErrorCode.ServerError, `Service Unavailable: this route already has ${held + this.count} sessions and exchanges; retry later`, null, { "retry-after": "5" });
    }
    this.count++;
    // No session on the wire, but the guardian's flow rules and limits need one: every stateless request of one caller
    // is judged in the same guardian session.
    const s = this.make("", caller, `stateless:${callerName(req, caller)}`, () => {
      this.count--;
    });
    frame.carry = statelessCarry(req, frame.carry);
    if (requests.length === 0) {
      void s.deliver(frame).then((problem) => {
        acknowledge(res, problem, "");
        void s.end();
      });
      return;
    }
    frame.carry.exchange = s.expect(res, requests, false, () => metadataUrl(req));
    res.on("close", () => void s.end());
    inTurn(() => s.connection.receive(frame));
  }
}

/**
 * What a stateless-era request carries upstream besides the session's own headers: its `MCP-Protocol-Version` and
 * `Mcp-Param-*` headers (the upstream derives `Mcp-Method` and `Mcp-Name` from the judged body, so they match it).
 */
function statelessCarry(req: IncomingMessage, carry: PostCarry): PostCarry {
  const headers: Record<string, string> = { ...carry.headers };
  for (const [k, v] of Object.entries(req.headers)) if (k.startsWith("mcp-param-") && typeof v === "string") headers[k] = v;
  return { ...carry, headers };
}
