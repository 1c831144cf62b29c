import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApprovalDesk, HeldApproval } from "../approvals/broker.js";
import { summary, type ApprovalLinkPair, type LinkUses } from "../approvals/webhook.js";
import type { AdminRoute } from "./server.js";

type Action = "approve" | "deny";
type LinkError = "LINK_INVALID" | "LINK_EXPIRED" | "LINK_USED" | "APPROVAL_GONE" | "TOO_LARGE" | "UNAVAILABLE";

/** Links used, remembered so a second use says so (bounded: past it, the approval is no longer held anyway). */
const MAX_USED = 4096;
const MAX_FORM = 4096;
const PATH = /^\/approvals\/link\/(ap-[0-9a-f]+)\/(approve|deny)$/;

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // The link is the credential: never sent on as a Referer.
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** With a shared store: keys every replica has (the first signs, all verify) and the links' uses in Redis. */
export interface SharedLinks {
  keys: Buffer[];
  uses: LinkUses;
}

/**
 * Signed, single-use approve and deny links for the approval webhook. The signature is HMAC-SHA256 over the approval
 * id, the action and the expiry, with a key made at random when guardwire starts (never the admin token): a link
 * works only while this process runs, which is as long as the approval it decides can be held. With a shared store
 * the key is derived from the session keys, so a link works through any replica, and its use is recorded in Redis.
 * A GET shows a confirmation page; only its POST decides, so a link preview that fetches the URL decides nothing.
 */
export class ApprovalLinks {
  private readonly keys: Buffer[];
  private readonly used = new Map<string, Action>();
  /** The admin listener's root as the approver reaches it: the public URL, else the listener's own, once it listens. */
  base = "";

  constructor(
    private readonly desk: ApprovalDesk,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedLinks,
  ) {
    this.keys = shared?.keys.length ? shared.keys : [randomBytes(32)];
  }

  linksFor(held: HeldApproval): ApprovalLinkPair {
    const exp = Date.parse(held.expiresAt);
    const link = (action: Action) => `${this.base.replace(/\/+$/, "")}/approvals/link/${held.id}/${action}?exp=${exp}&sig=${this.sign(this.keys[0] as Buffer, held.id, action, exp)}`;
    return { approve: link("approve"), deny: link("deny") };
  }

  routes(): AdminRoute[] {
    return [
      { method: "GET", pattern: PATH, public: true, run: (m, { req, res, url }) => this.page(m, req, res, url) },
      { method: "POST", pattern: PATH, public: true, run: (m, { req, res, url }) => this.decide(m, req, res, url) },
    ];
  }

  private sign(key: Buffer, id: string, action: Action, exp: number): string {
    return createHmac("sha256", key).update(`guardwire-approval-link\u0000${id}\u0000${action}\u0000${exp}`).digest("base64url");
  }

  /** The approval a link may still decide, or why not. The order matters: a forged link learns nothing. */
  private async check(id: string, action: Action, url: URL): Promise<{ held: HeldApproval; exp: number } | Refusal> {
    const expText = url.searchParams.get("exp") ?? "";
    const exp = /^\d{1,15}$/.test(expText) ? Number(expText) : NaN;
    const given = Buffer.from(url.searchParams.get("sig") ?? "", "utf8");
    const signed = (key: Buffer) => {
      const want = Buffer.from(this.sign(key, id, action, exp), "utf8");
      return given.length === want.length && timingSafeEqual(given, want);
    };
    if (Number.isNaN(exp) || !this.keys.some(signed)) {
      return { status: 403, code: "LINK_INVALID", message: "This link is not valid: it was changed, or it comes from another guardwire (or one that restarted since)." };
    }
    const used = this.used.get(id) ?? (await this.shared?.uses.used(id));
    if (used) return { status: 409, code: "LINK_USED", message: `This approval was already ${used === "approve" ? "approved" : "refused"} through a link: each link works once.` };
    if (this.now() >= exp) return { status: 410, code: "LINK_EXPIRED", message: "This link has expired: the approval's time ran out." };
    const held = await this.desk.get(id);
    if (!held) return { status: 409, code: "APPROVAL_GONE", message: "This approval is no longer waiting: it was decided elsewhere, timed out, or the agent withdrew it." };
    return { held, exp };
  }

  private async page(m: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const [id, action] = [m[1] as string, m[2] as Action];
    const c = await this.check(id, action, url);
    if (!("held" in c)) return refuse(req, res, c);
    const h = c.held;
    const verb = action === "approve" ? "Approve" : "Deny";
    const rows: [string, string | null][] = [
      ["Request", h.prompt],
      ["Summary", summary(h)],
      ["Tool", h.tool],
      ["Route", h.route],
      ["Agent", h.agent],
      ["Server", h.server],
      ["Rule", h.rule],
      ["Approval", h.id],
      ["Expires", h.expiresAt],
    ];
    const list = rows.filter(([, v]) => v !== null).map(([k, v]) => `<dt>${k}</dt><dd>${esc(v as string)}</dd>`).join("");
    const body =
      `<h1>${verb} this call?</h1><dl>${list}</dl>` +
      `<form method="post"><p><label>Reason (optional) <input name="reason" maxlength="500"></label></p>` +
      `<p><button type="submit">${verb}</button></p></form>`;
    html(res, 200, `guardwire: ${verb.toLowerCase()} ${h.id}`, body);
  }

  private async decide(m: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const [id, action] = [m[1] as string, m[2] as Action];
    const c = await this.check(id, action, url);
    if (!("held" in c)) return refuse(req, res, c);
    const form = await readForm(req);
    if (form === null) return refuse(req, res, { status: 413, code: "TOO_LARGE", message: `The form is over ${MAX_FORM} bytes.` });
    const reason = form.get("reason")?.slice(0, 500) || undefined;
    const d = await this.desk.decide(id, { approve: action === "approve", channel: "webhook", reason });
    if (!d.ok) return refuse(req, res, d.code === "UNAVAILABLE" ? { status: 503, code: "UNAVAILABLE", message: d.message } : { status: 409, code: "APPROVAL_GONE", message: d.message });
    this.used.set(id, action);
    if (this.used.size > MAX_USED) this.used.delete(this.used.keys().next().value as string);
    this.shared?.uses.use(id, action, c.exp - this.now() + 60_000);
    const done = action === "approve" ? "approved" : "refused";
    if (wantsJson(req)) return json(res, 200, { approval: d.approval, decision: done });
    html(res, 200, `guardwire: ${done}`, `<h1>${action === "approve" ? "Approved" : "Refused"}</h1><p>${esc(summary(d.approval))}</p>`);
  }
}

type Refusal = { status: number; code: LinkError; message: string };

function refuse(req: IncomingMessage, res: ServerResponse, e: Refusal): void {
  if (wantsJson(req)) return json(res, e.status, { error: { code: e.code, message: e.message } });
  html(res, e.status, "guardwire: link refused", `<h1>Nothing was decided</h1><p>${esc(e.message)}</p><p>${e.code}</p>`);
}

function wantsJson(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").includes("application/json");
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "referrer-policy": "no-referrer" });
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number, title: string, body: string): void {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title></head><body>${body}</body></html>\n`;
  res.writeHead(status, { ...HEADERS, "content-length": Buffer.byteLength(page) });
  res.end(page);
}

/** The confirmation form's fields (urlencoded), or null when it is too large. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  let text = "";
  for await (const c of req as AsyncIterable<Buffer>) {
    text += c.toString("utf8");
    if (text.length > MAX_FORM) return null;
  }
  return new URLSearchParams(text);
}

/** Everything from the wire is text on the page, never markup. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
