import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { GuardwireError } from "../errors.js";
import { atomicWrite } from "../fs-atomic.js";
import { makeDirs } from "../fs-dirs.js";

/** What an approval is bound to: it covers a call only when every one of these is the same. */
export interface Binding {
  route: string;
  agent: string | null;
  server: string | null;
  method: string | null;
  tool: string | null;
  rule: string;
  argsDigest: string;
  ruleset: string;
}

/** One remembered approval, as `GET /api/approvals/remembered` and the approvals file show it. */
export interface Remembered extends Binding {
  /** The approval that granted it (the log's `approval.id`). */
  id: string;
  scope: "session" | "always";
  /** The session it is limited to (scope session), else null. */
  session: string | null;
  grantedAt: string;
  /** null: until the session ends. */
  expiresAt: string | null;
}

const FILE_VERSION = 1;

/** What an approval is bound to (Binding below), as zod fields: the file's entries and the admin API's schema. */
export const bindingFields = {
  route: z.string(),
  agent: z.string().nullable(),
  server: z.string().nullable(),
  method: z.string().nullable(),
  tool: z.string().nullable(),
  rule: z.string(),
  argsDigest: z.string().regex(/^[0-9a-f]{64}$/),
  ruleset: z.string(),
};

const entrySchema = z.strictObject({
  id: z.string().min(1),
  scope: z.literal("always"),
  session: z.null(),
  ...bindingFields,
  grantedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
const fileSchema = z.strictObject({ version: z.literal(FILE_VERSION), approvals: z.array(entrySchema) });

/** Route, agent, server, tool, rule, arguments and rules version (and the session, for scope session). */
export function bindingKey(b: Binding, session: string | null): string {
  return [session ?? "*", b.route, b.agent ?? "", b.server ?? "", b.method ?? "", b.tool ?? "", b.rule, b.argsDigest, b.ruleset].join("\u0000");
}

/**
 * The remembered approvals of one guardwire process: `session` ones in memory, `always` ones also in a file when one
 * is given (mode 0600, replaced atomically), so they outlive a restart. Several guardwires may share the file (one
 * `wrap` per client): each re-reads it when it changed before using it, and writes it whole after a change.
 */
export class RememberedApprovals {
  private readonly entries = new Map<string, Remembered>();
  /** What the file was when last read or written (size, mtime, inode): a change means another process wrote it. */
  private seen = "";

  constructor(
    private readonly file: string | null,
    private readonly max: number,
    private readonly now: () => number,
    /** Told when the file cannot be written: the approvals stay remembered in memory. */
    private readonly warn: (message: string) => void,
  ) {
    if (file) this.load(true);
  }

  find(key: string): Remembered | undefined {
    this.sync();
    const hit = this.entries.get(key);
    if (hit?.expiresAt && Date.parse(hit.expiresAt) <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit;
  }

  add(r: Remembered): void {
    this.sync();
    const key = bindingKey(r, r.session);
    this.entries.delete(key);
    this.entries.set(key, r);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    if (r.scope !== "always") return;
    try {
      this.save();
    } catch (e) {
      this.warn(`cannot write the remembered approvals file ${this.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (approval ${r.id} is remembered in memory only)`);
    }
  }

  list(): Remembered[] {
    this.sync();
    const now = this.now();
    return [...this.entries.values()].filter((r) => !r.expiresAt || Date.parse(r.expiresAt) > now);
  }

  /** Forgets the matching ones (and writes the file when an `always` one went); returns how many. */
  remove(which: (r: Remembered) => boolean): number {
    this.sync();
    let n = 0;
    let persisted = false;
    for (const [key, r] of this.entries) {
      if (!which(r)) continue;
      this.entries.delete(key);
      n++;
      persisted ||= r.scope === "always";
    }
    if (persisted) this.save();
    return n;
  }

  /** A session ended: its remembered approvals go with it (nothing persisted changes). */
  endSession(session: string): void {
    for (const [key, r] of this.entries) if (r.session === session) this.entries.delete(key);
  }

  private stamp(): string {
    try {
      const s = statSync(this.file as string);
      return `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      return "absent";
    }
  }

  private sync(): void {
    if (this.file && this.stamp() !== this.seen) this.load(false);
  }

  /** At start a bad file stops guardwire; later (another process wrote it badly) what is in memory is kept. */
  private load(atStart: boolean): void {
    const file = this.file as string;
    this.seen = this.stamp();
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") {
        if (atStart) throw new GuardwireError("CONFIG_INVALID", `cannot read the remembered approvals file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        return;
      }
      text = "";
    }
    let approvals: Remembered[] = [];
    if (text.trim() !== "") {
      const parsed = parseFile(text);
      if (typeof parsed === "string") {
        if (!atStart) return;
        throw new GuardwireError("CONFIG_INVALID", `the remembered approvals file ${file} is not valid (${parsed}): fix or delete it (deleting forgets every remember: always approval)`);
      }
      approvals = parsed;
    }
    for (const [key, r] of this.entries) if (r.scope === "always") this.entries.delete(key);
    const now = this.now();
    for (const r of approvals) if (r.expiresAt && Date.parse(r.expiresAt) > now) this.entries.set(bindingKey(r, null), r);
  }

  private save(): void {
    const file = this.file;
    if (!file) return;
    const now = this.now();
    const approvals = [...this.entries.values()].filter((r) => r.scope === "always" && r.expiresAt && Date.parse(r.expiresAt) > now);
    makeDirs(dirname(file), 0o700);
    try {
      writeFileSync(file, "", { mode: 0o600, flag: "wx" });
    } catch {
      chmodSync(file, 0o600); // there already: it stays owner-only whatever made it
    }
    atomicWrite(file, JSON.stringify({ version: FILE_VERSION, approvals }, null, 2) + "\n");
    this.seen = this.stamp();
  }
}

function parseFile(text: string): Remembered[] | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  const parsed = fileSchema.safeParse(json);
  if (parsed.success) return parsed.data.approvals;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join(".") || "file"}: ${issue?.message ?? "invalid"}`;
}
