import { FORGES, INTERNAL } from "./exfil-channels.js";
import type { Command, Redirect, Script, Word } from "./shell.js";

/*
 * (Ninth round) Command families judged on one command, or on the order of a line's commands (docs/detection.md,
 * "Ninth round: exfiltration and commands"):
 *
 * - a login script (`~/.bashrc`, `~/.zshrc`, `/etc/profile`…) given an alias or a function that shadows a command
 *   asking for a password (`sudo`, `su`, `ssh`, `passwd`…) with something else, or any line reading a password
 *   silently (`read -s`): a credential capture that runs at every login. `alias sudo='sudo '` and `alias ll='ls -l'` pass;
 * - a literal SSH key appended to root's `authorized_keys`: a way in for whoever holds the key (`$PUBKEY` and the
 *   user's own `~/.ssh/authorized_keys` pass);
 * - file capabilities that make a program root (`cap_setuid`, `cap_sys_admin`, `cap_dac_override`…) set with setcap.
 *   `cap_net_bind_service` and `setcap -r` pass;
 * - the firewall opened: its rules flushed while a chain's policy is set to ACCEPT with nothing added after
 *   (iptables/ip6tables), `nft flush ruleset` with nothing loaded after, `ufw default allow incoming`. A reset that
 *   goes on to add rules or set a DROP policy, and listing (`iptables -L`), pass;
 * - a package installed as root straight from a URL on a host that is neither a known forge nor an index nor internal;
 * - a managed database deleted without its final snapshot (`--skip-final-snapshot`, `--delete-automated-backups`)
 *   when its name is not a test or development one;
 * - a force push (`--force`, `-f`, `+ref`) to a shared branch (main, master, trunk, develop, release…): history
 *   rewritten under everyone. `--force-with-lease` and feature branches pass.
 */

export interface NinthFinding {
  type: string;
  detail: string;
}

/** Programs that ask for a password or hold a credential: shadowing one in a login script captures it. */
const PROMPTING = /^(?:sudo|su|doas|ssh|scp|sftp|passwd|gpg|kinit|login|mysql|psql|git|aws|vault|op|pkexec|ssh-add)$/;
/** Shell login scripts. */
const RC_FILE = /(?:^|\/)(?:\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)|\.config\/fish\/config\.fish|etc\/profile(?:\.d\/[^/]{1,100})?|etc\/bash\.bashrc|etc\/zsh\/zshrc)$/;
/** A silent read: a password typed at a prompt the line invents. */
const SILENT_READ = /\bread\s{1,4}(?:-[A-Za-z]{0,6}\s{1,4}){0,3}-[A-Za-z]{0,6}s[A-Za-z]{0,6}\b/;
const ALIAS = /\balias\s{1,4}([A-Za-z][\w-]{0,30})=(["']?)([^\n]{0,400})/g;
const FUNCTION = /(?:^|[\s;])(?:function\s{1,4})?([A-Za-z][\w-]{0,30})\s{0,4}\(\)\s{0,4}\{([^\n]{0,400})/g;

/** The text a login script is given by one command: its echo/printf words, or a here-document's body. */
function rcText(c: Command, name: string, args: Word[], rc: boolean): string | null {
  if (!rc) return null;
  if (name === "echo" || name === "printf") return args.map((w) => w.text).join(" ");
  const body = c.redirects.find((d) => d.body !== undefined)?.body;
  return body ?? null;
}

/** Whether an alias's or function's body stands in for the command it shadows with something else. */
function shadows(cmd: string, body: string): boolean {
  const b = body.replace(/^["'\s]+/, "");
  if (SILENT_READ.test(b) || /(?:>>?|\btee\b|\bcurl\b|\bwget\b|\bnc\b)/.test(b)) return true;
  const first = /^(?:command\s{1,4}|builtin\s{1,4}|\\)?([\w./-]{1,60})/.exec(b)?.[1] ?? "";
  return first.slice(first.lastIndexOf("/") + 1) !== cmd;
}

function loginScriptCapture(text: string): string | null {
  if (SILENT_READ.test(text)) return "a login script reads a password silently";
  ALIAS.lastIndex = 0;
  for (let m, n = 0; (m = ALIAS.exec(text)) !== null && n < 16; n++) {
    if (PROMPTING.test(m[1] as string) && shadows(m[1] as string, m[3] as string)) return `a login script shadows ${m[1]} with an alias`;
  }
  FUNCTION.lastIndex = 0;
  for (let m, n = 0; (m = FUNCTION.exec(text)) !== null && n < 16; n++) {
    if (PROMPTING.test(m[1] as string) && shadows(m[1] as string, m[2] as string)) return `a login script shadows ${m[1]} with a function`;
  }
  return null;
}

const ROOT_KEYS = /^(?:\/root|~root)\/\.ssh\/authorized_keys2?$/;
const LITERAL_KEY = /(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)\s{1,4}AAAA[A-Za-z0-9+/]{8}/;

const ROOT_CAPS = /cap_(?:setuid|setgid|sys_admin|sys_ptrace|sys_module|dac_override|dac_read_search|chown|fowner|sys_rawio|bpf)\b/i;

const DEV_NAME = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|scratch|sandbox|ci|e2e|pr|preview|ephemeral|demo|qa)(?:[^a-z]|$)/i;
const SHARED_BRANCH = /^(?:main|master|trunk|develop|development|dev|production|prod|stable|release(?:[/-].{1,60})?|releases\/.{1,60})$/i;
const PACKAGE_INDEXES = /(?:^|\.)(?:pypi\.org|pythonhosted\.org|npmjs\.org|npmjs\.com|yarnpkg\.com|rubygems\.org|crates\.io)$/i;

/** Judges one command (its name as resolved, past sudo and assignments). */
export function judgeNinth(name: string, args: Word[], sudo: boolean, c: Command, redirectsTo: (test: RegExp) => boolean): NinthFinding[] {
  const out: NinthFinding[] = [];
  const a = args.map((w) => w.text);
  // -- login scripts and root's keys
  const rc = redirectsTo(RC_FILE) || (name === "tee" && a.some((t) => RC_FILE.test(t)));
  const text = rcText(c, name, args, rc);
  if (text !== null) {
    const capture = loginScriptCapture(text);
    if (capture) out.push({ type: "dangerous_command.persistence", detail: capture });
  }
  if ((redirectsTo(ROOT_KEYS) || (name === "tee" && a.some((t) => ROOT_KEYS.test(t)))) && (name === "echo" || name === "printf" || c.redirects.some((d: Redirect) => d.body !== undefined))) {
    const written = name === "echo" || name === "printf" ? a.join(" ") : (c.redirects.find((d) => d.body !== undefined)?.body ?? "");
    if (LITERAL_KEY.test(written)) out.push({ type: "dangerous_command.persistence", detail: "a fixed SSH key added to root's authorized_keys" });
  }
  // -- capabilities that make a program root
  if (name === "setcap" && !a.includes("-r") && a.some((t) => ROOT_CAPS.test(t) && /[+=][eip]*[ep]/i.test(t))) out.push({ type: "dangerous_command.privilege_escalation", detail: "setcap gives a program a capability that makes it root" });
  // -- firewall opened to everything
  if (name === "ufw" && a[0] === "default" && a[1] === "allow" && (a[2] === undefined || a[2] === "incoming")) out.push({ type: "dangerous_command.defense_evasion", detail: "the firewall set to allow every incoming connection" });
  // -- packages installed as root from an unknown host
  if (sudo && /^(?:pip|pip3|npm|gem)$/.test(name) && (a[0] === "install" || a[0] === "i")) {
    for (const t of a.slice(1)) {
      const m = /^(?:git\+)?(?:https?|ssh|git):\/\/(?:[^@/\s]{1,100}@)?([^/:\s]{1,253})/i.exec(t);
      if (!m) continue;
      const host = (m[1] as string).toLowerCase();
      if (!FORGES.test(host) && !PACKAGE_INDEXES.test(host) && !INTERNAL.test(host)) {
        out.push({ type: "dangerous_command.untrusted_install", detail: `${name} installs a package as root from an unknown host` });
        break;
      }
    }
  }
  // -- a managed database deleted without its final snapshot
  if (name === "aws" && /^(?:rds|docdb|neptune|redshift)$/.test(a[0] ?? "") && /^delete-(?:db-instance|db-cluster|cluster)$/.test(a[1] ?? "") && a.some((t) => /^--(?:skip-final-(?:cluster-)?snapshot|delete-automated-backups)$/.test(t))) {
    const id = a.findIndex((t) => /^--(?:db-instance-identifier|db-cluster-identifier|cluster-identifier)$/.test(t));
    const db = id >= 0 ? (a[id + 1] ?? "") : (a.find((t) => /^--(?:db-instance|db-cluster|cluster)-identifier=/.test(t))?.replace(/^[^=]*=/, "") ?? "");
    if (!DEV_NAME.test(db)) out.push({ type: "dangerous_command.database_destroy", detail: "a database deleted without its final snapshot" });
  }
  // -- a force push to a shared branch
  if (name === "git") {
    let i = 0;
    while (i < a.length && a[i] !== "push" && i < 6) i += a[i] === "-C" || a[i] === "-c" ? 2 : 1;
    if (a[i] === "push") {
      const rest = a.slice(i + 1);
      const force = rest.some((t) => t === "--force" || t === "-f" || (/^-[A-Za-z]{2,6}$/.test(t) && t.includes("f")));
      const refs = rest.filter((t) => !t.startsWith("-")).slice(1);
      const shared = (r: string) => SHARED_BRANCH.test(r.replace(/^\+/, "").replace(/^.*:/, "").replace(/^refs\/heads\//, ""));
      if ((force && (refs.some(shared) || rest.includes("--all"))) || refs.some((r) => r.startsWith("+") && shared(r))) out.push({ type: "dangerous_command.history_rewrite", detail: "a force push rewrites a shared branch's history" });
    }
  }
  return out;
}

/** The firewall flushed and a chain's policy set to ACCEPT, nothing added or denied after; `nft flush ruleset` alone. */
export function judgeFirewall(s: Script, nameOf: (c: Command) => { name: string; args: string[] }): NinthFinding | null {
  let flushed = false;
  let accepting = false;
  let nftFlushed = false;
  let budget = 400;
  for (const p of s.pipelines) {
    for (const c of p.commands) {
      if (--budget < 0) return null;
      const { name, args } = nameOf(c);
      if (name === "iptables" || name === "ip6tables" || name === "iptables-legacy" || name === "iptables-nft") {
        if (args.some((t) => t === "-F" || t === "--flush")) flushed = true;
        const policy = args.findIndex((t) => t === "-P" || t === "--policy");
        if (policy >= 0) {
          const target = (args[policy + 2] ?? "").toUpperCase();
          if (target === "ACCEPT" && /^(?:INPUT|FORWARD)$/i.test(args[policy + 1] ?? "")) accepting = true;
          else if (target === "DROP" || target === "REJECT") return null;
        }
        // (Twelfth round) A rule appended that denies something rebuilds the firewall; one that only accepts more
        // (`-A INPUT -p tcp --dport 22 -j ACCEPT` after the flush) leaves it open.
        if (args.some((t) => t === "-A" || t === "-I" || t === "--append" || t === "--insert")) {
          const jump = args.findIndex((t) => t === "-j" || t === "--jump");
          if (jump < 0 || (args[jump + 1] ?? "").toUpperCase() !== "ACCEPT") return null;
        }
      }
      if (name === "iptables-restore" || name === "ip6tables-restore" || name === "netfilter-persistent") return null;
      if (name === "nft") {
        const words = args.filter((t) => !t.startsWith("-"));
        if (words[0] === "flush" && words[1] === "ruleset") nftFlushed = true;
        // (Fourteenth round) After a flush, tables and chains whose policy accepts, with no rule that drops or rejects,
        // leave the host open (`nft add chain inet filter input '{ … policy accept; }'`): only a drop or a reject, or a
        // ruleset loaded from a file, rebuilds the firewall.
        else if (args.includes("-f")) return null;
        else if (words[0] === "add" || words[0] === "insert" || words[0] === "create") {
          if (!nftFlushed || args.some((t) => /\b(?:drop|reject)\b/i.test(t))) return null;
        }
      }
    }
  }
  if (flushed && accepting) return { type: "dangerous_command.defense_evasion", detail: "the firewall flushed and set to accept everything" };
  if (nftFlushed) return { type: "dangerous_command.defense_evasion", detail: "every firewall rule flushed" };
  return null;
}
