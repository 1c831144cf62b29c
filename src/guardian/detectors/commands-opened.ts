/*
 * (Nineteenth round, "cp19") A host's remote login opened to root (docs/detection.md, "Nineteenth round: commands that
 * open a host or write one value on every row"). Read as text on command sites only (commands.ts), gated on the
 * setting's own rare name:
 *
 * - **the SSH server's root or empty-password login switched on** (`.defense_evasion`): a line that writes
 *   `PermitRootLogin yes` or `PermitEmptyPasswords yes` into the SSH server's configuration (`sed -i`, `tee`, `>>`,
 *   `>`). Whoever reaches the port may then log in as root, or with no password at all. Reading the setting (`grep`,
 *   `sshd -T`), and the hardening that replaces `yes` by `no` or `prohibit-password`, pass: only the value the line
 *   leaves written counts (in `s/A/B/`, the B).
 */

export interface OpenedFinding {
  type: string;
  detail: string;
  start: number;
  end: number;
}

/** A setting switched on: the name, blanks or `=`, then `yes`, as a whole word. */
const SWITCHED_ON = /\b(permitrootlogin|permitemptypasswords)(?:\s{1,8}|\s{0,4}=\s{0,4})yes\b/g;
/** A line that writes the SSH server's configuration: an in-place sed, a tee, or a redirection into it. */
const WRITES_SSHD = /\bsed\s{1,8}(?:-[a-z]{1,6}\s{1,8}){0,4}(?:-[a-z]{0,4}i|--in-place)|\btee\b[^\n;&|]{0,200}sshd_config|>{1,2}\s{0,4}["']?[^\s;&|]{0,120}sshd_config|\bset-content\b|\badd-content\b/;

/** The SSH server's root (or empty-password) login written as switched on, or null. `lower` is the line in lower case. */
export function remoteRootOpened(lower: string): OpenedFinding | null {
  if (!lower.includes("sshd_config") || !(lower.includes("permitrootlogin") || lower.includes("permitemptypasswords"))) return null;
  if (!WRITES_SSHD.test(lower)) return null;
  SWITCHED_ON.lastIndex = 0;
  for (let m, n = 0; (m = SWITCHED_ON.exec(lower)) !== null && n < 16; n++) {
    // In a substitution that replaces this very setting (`s/PermitRootLogin yes/PermitRootLogin no/`), the value is the
    // one taken away: the next mention of the same name close after it is the one written.
    const after = lower.slice(m.index + m[0].length, m.index + m[0].length + 80);
    if (after.includes(m[1] as string)) continue;
    return { type: "dangerous_command.defense_evasion", detail: `switches on the SSH server's ${m[1] === "permitrootlogin" ? "root" : "empty-password"} login`, start: m.index, end: m.index + m[0].length };
  }
  return null;
}
