/*
 * (Thirteenth round, "cps13") Commands judged by what they do to the control of a system rather than by one CLI's
 * spelling (docs/detection.md, "Thirteenth round: commands that take control away"). Each is a check over a resolved
 * command's program and words (commands.ts resolves wrappers such as `sudo` first):
 *
 * - **the record or the watch of a cloud or a secret store turned off**: what an intruder does first, in every
 *   provider — AWS's trail stopped or deleted (`cloudtrail stop-logging`, `delete-trail`), its threat detection,
 *   posture, configuration and flow records removed (`guardduty delete-detector`, `securityhub
 *   disable-security-hub`, `configservice stop-configuration-recorder`, `ec2 delete-flow-logs`, `macie2
 *   disable-macie`, `inspector2 disable`, `access-analyzer delete-analyzer`), Google Cloud's log sinks deleted or
 *   its audit and security services disabled, Azure's diagnostic settings deleted, Vault's audit devices disabled, a
 *   Kubernetes runtime-security workload deleted (Falco, Tetragon, Wazuh, a Datadog or CrowdStrike agent). Listing,
 *   describing, starting or enabling any of them passes;
 * - **administration granted to everyone**: a cluster-wide admin role bound to the anonymous or every authenticated
 *   user (`kubectl create clusterrolebinding … --clusterrole=cluster-admin --user=system:anonymous`, `--group
 *   system:unauthenticated`), a cloud project's owner or editor role given to `allUsers` or `allAuthenticatedUsers`.
 *   A role for one user or service account, a public *viewer* of a website bucket pass;
 * - **a workload applied from an address nobody reviewed**: `kubectl apply -f https://<host>/…` (or `create`, `replace`)
 *   from a host that is not a code forge or a project's release store, which runs whatever the host serves in the
 *   cluster. The documented manifests of projects (cert-manager, ingress-nginx, metrics-server on GitHub and their
 *   own release hosts), a local file, a `-k` folder pass;
 * - **this machine's screen or terminal opened to someone else**: a shared terminal or editor reachable from the
 *   internet (`tmate`, `upterm host`, `sshx`, `tty-share`, `code tunnel`, `devtunnel host`), or a remote-desktop
 *   program given an unattended password (AnyDesk's `--set-password`, TeamViewer's `passwd` and `assignment`,
 *   RustDesk's `--password`). Versions, status, listing, killing a session, an unattended password removed pass;
 * - **a folder mirrored from an empty one**: `rsync --delete` (or `--delete-*`, `--mirror`) or `robocopy /MIR`
 *   (`/PURGE`) whose source is a folder the same line has just made (`mkdir -p /tmp/empty && rsync -a --delete
 *   /tmp/empty/ /srv/data/`) or that is named empty — the target's every file is deleted. A deploy or a backup
 *   mirror from a real source passes;
 * - **a web framework's whole database wiped with its guard overridden**: `wp db drop|reset --yes`, Laravel's
 *   `artisan db:wipe|migrate:fresh --force`. A development site, or the command without its override, passes.
 *
 * Every test reads a bounded number of words; no regex runs over free text.
 */

import type { Command, Script } from "./shell.js";

export interface ControlFinding {
  type: string;
  detail: string;
}

const isOption = (t: string) => t.startsWith("-");

/** The positional words of a command (not options, not an option's `=value`). */
function positional(a: readonly string[]): string[] {
  return a.filter((t) => !isOption(t)).slice(0, 16);
}

/** The positional words after the first of `verbs` (`kubectl -n falco delete ds falco` → ds, falco). */
function after(a: readonly string[], verbs: readonly string[]): string[] {
  const i = a.findIndex((t) => verbs.includes(t));
  return i < 0 ? [] : positional(a.slice(i + 1));
}

/** A cloud CLI's subcommands that stop or remove what records or watches the account. */
const AWS_WATCH_OFF: Record<string, RegExp> = {
  cloudtrail: /^(?:stop-logging|delete-trail)$/,
  guardduty: /^(?:delete-detector|disassociate-from-(?:master|administrator)-account|delete-publishing-destination)$/,
  securityhub: /^(?:disable-security-hub|disable-import-findings-for-product)$/,
  configservice: /^(?:stop-configuration-recorder|delete-configuration-recorder|delete-delivery-channel)$/,
  macie2: /^disable-macie$/,
  inspector2: /^disable$/,
  "access-analyzer": /^delete-analyzer$/,
  detective: /^delete-graph$/,
};

/** Runtime-security workloads of a cluster, by name. */
const RUNTIME_SECURITY = /^(?:(?:daemonsets?|ds|deployments?|deploy|namespaces?|ns)\/)?(?:falco|falco-[\w-]{1,40}|tetragon|wazuh(?:-agent)?|datadog(?:-agent)?|falcon-sensor|crowdstrike[\w-]{0,40}|sysdig(?:-agent)?|aqua-enforcer|kube-bench|trivy-operator|kyverno|gatekeeper(?:-system)?|neuvector[\w-]{0,30})$/i;

function watchOff(name: string, a: readonly string[]): string | null {
  const p = positional(a);
  if (name === "aws") {
    const re = AWS_WATCH_OFF[p[0] ?? ""];
    if (re !== undefined && re.test(p[1] ?? "")) return `aws ${p[0]} ${p[1]} turns off what records or watches the account`;
    if (p[0] === "ec2" && p[1] === "delete-flow-logs") return "aws ec2 delete-flow-logs removes the network's record";
    if (p[0] === "guardduty" && p[1] === "update-detector" && a.includes("--no-enable")) return "aws guardduty update-detector turns threat detection off";
  }
  if (name === "gcloud") {
    if (p[0] === "logging" && p[1] === "sinks" && p[2] === "delete") return "gcloud deletes a log sink";
    if (p[0] === "services" && p[1] === "disable" && p.slice(2).some((t) => /^(?:securitycenter|logging|cloudaudit|containersecurity|websecurityscanner)\.googleapis\.com$/.test(t))) return "gcloud disables a logging or security service";
  }
  if (name === "az" && p[0] === "monitor" && p[1] === "diagnostic-settings" && p[2] === "delete") return "az deletes a resource's diagnostic (audit) settings";
  if (name === "vault" && p[0] === "audit" && p[1] === "disable") return "vault disables an audit device";
  if (name === "kubectl" && after(a, ["delete"]).some((t) => RUNTIME_SECURITY.test(t))) return "kubectl deletes a cluster's runtime-security workload";
  if (name === "helm" && after(a, ["uninstall", "delete"]).some((t) => RUNTIME_SECURITY.test(t))) return "helm uninstalls a cluster's runtime-security workload";
  return null;
}

/** Everyone, as the principals of Kubernetes and the clouds name them. */
const EVERYONE = /^(?:system:anonymous|system:unauthenticated|system:authenticated|allUsers|allAuthenticatedUsers)$/;
/** Roles that administer: Kubernetes' admin and edit roles, a project's owner or editor, any role named admin. */
const ADMIN_ROLE = /^(?:cluster-admin|admin|edit|roles\/(?:owner|editor|[\w.]{0,60}[aA]dmin[\w.]{0,40})|Owner|Contributor|[\w ]{0,40}Administrator)$/;

function optionValue(a: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length && out.length < 16; i++) {
    const t = a[i] as string;
    for (const n of names) {
      if (t === n && a[i + 1] !== undefined) out.push(a[i + 1] as string);
      else if (t.startsWith(`${n}=`)) out.push(t.slice(n.length + 1));
    }
  }
  return out;
}

function adminToEveryone(name: string, a: readonly string[]): string | null {
  const p = positional(a);
  const created = name === "kubectl" ? after(a, ["create"]) : [];
  if (name === "kubectl" && (created[0] === "clusterrolebinding" || created[0] === "rolebinding")) {
    const role = optionValue(a, ["--clusterrole", "--role"]);
    const who = optionValue(a, ["--user", "--group", "--serviceaccount"]);
    if (role.some((r) => ADMIN_ROLE.test(r)) && who.some((w) => EVERYONE.test(w))) return `kubectl binds an admin role to everyone (${who.find((w) => EVERYONE.test(w))})`;
  }
  if (name === "gcloud" && p.includes("add-iam-policy-binding")) {
    const member = optionValue(a, ["--member"]);
    const role = optionValue(a, ["--role"]);
    if (member.some((m) => EVERYONE.test(m)) && role.some((r) => ADMIN_ROLE.test(r))) return "gcloud grants an owner, editor or admin role to everyone";
  }
  if (name === "az" && p[0] === "role" && p[1] === "assignment" && p[2] === "create") {
    const role = optionValue(a, ["--role"]);
    const who = optionValue(a, ["--assignee", "--assignee-object-id"]);
    if (role.some((r) => ADMIN_ROLE.test(r)) && who.some((w) => /^(?:Everyone|All Users|allUsers)$/i.test(w))) return "az grants an administering role to everyone";
  }
  return null;
}

/** Hosts whose manifests are projects' own releases (a forge, a project's release store). */
const MANIFEST_HOSTS = /^(?:github\.com|raw\.githubusercontent\.com|objects\.githubusercontent\.com|gitlab\.com|[\w-]{1,63}\.github\.io|storage\.googleapis\.com|dl\.k8s\.io|k8s\.io|[\w.-]{1,100}\.k8s\.io|docs\.projectcalico\.org|[\w.-]{1,100}\.tigera\.io|get\.helm\.sh|istio\.io|raw\.github\.com)$/i;

function remoteManifest(name: string, a: readonly string[]): string | null {
  if (name !== "kubectl" && name !== "oc") return null;
  const p = positional(a);
  if (p[0] !== "apply" && p[0] !== "create" && p[0] !== "replace") return null;
  for (const f of optionValue(a, ["-f", "--filename"])) {
    let u: URL;
    try {
      u = new URL(f);
    } catch {
      continue;
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") continue;
    if (u.protocol === "http:" || !MANIFEST_HOSTS.test(u.hostname)) return `${name} ${p[0]} runs in the cluster what ${u.hostname} serves`;
  }
  return null;
}

function sharedSession(name: string, a: readonly string[]): string | null {
  const p = positional(a);
  const quiet = (re: RegExp) => a.some((t) => re.test(t));
  if (name === "tmate") {
    if (quiet(/^(?:-V|--version|-h|--help)$/) || /^(?:kill-server|kill-session|list-sessions|ls|show-messages)$/.test(p[0] ?? "")) return null;
    return "tmate shares this machine's terminal with whoever has its link";
  }
  if (name === "upterm" && p[0] === "host") return "upterm shares this machine's terminal";
  if (name === "sshx" && !quiet(/^(?:-V|--version|-h|--help)$/)) return "sshx shares this machine's terminal";
  if (name === "tty-share" && !quiet(/^(?:-version|--version|-h|--help)$/)) return "tty-share shares this machine's terminal";
  if ((name === "code" || name === "code-insiders" || name === "cursor") && p[0] === "tunnel" && !/^(?:status|kill|restart|prune|unregister|user|service)$/.test(p[1] ?? "")) return `${name} tunnel opens this machine to an editor on the internet`;
  if (name === "devtunnel" && p[0] === "host") return "devtunnel hosts a tunnel into this machine";
  if (name === "anydesk" && a.some((t) => t === "--set-password")) return "AnyDesk given an unattended-access password";
  if (name === "teamviewer" && (p[0] === "passwd" || p[0] === "assignment" || (p[0] === "setup" && a.includes("--grant-easy-access")))) return "TeamViewer given unattended access";
  if (name === "rustdesk" && a.some((t) => t === "--password")) return "RustDesk given a permanent password";
  return null;
}

/** Temporary folders: what is made there is new. */
const TEMP_DIR = /^(?:\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?|%TEMP%|%TMP%|\$env:TEMP|[A-Za-z]:\\(?:Windows\\)?Temp)(?:[/\\]|$)/i;
/** Folders named empty: the source of a mirror that deletes everything at its target. */
const EMPTY_NAME = /(?:^|[/\\:])(?:empty|blank|void|nothing|null)(?:[-_.]?dir|[-_.]?folder)?[/\\]?$/i;

function emptyMirror(name: string, a: readonly string[], made: ReadonlySet<string>): string | null {
  const norm = (t: string) => t.replace(/[/\\]+$/, "");
  if (name === "rsync") {
    if (!a.some((t) => t === "--delete" || t.startsWith("--delete-") || t === "--del" || t === "--mirror")) return null;
    const ops = positional(a);
    if (ops.length < 2) return null;
    const sources = ops.slice(0, -1);
    if (sources.some((s) => made.has(norm(s)) || EMPTY_NAME.test(s) || s === "/dev/null")) return "rsync mirrors an empty folder onto its target, deleting every file there";
  }
  if (name === "robocopy") {
    if (!a.some((t) => /^\/(?:MIR|PURGE)$/i.test(t))) return null;
    const src = a.find((t) => !t.startsWith("/"));
    if (src !== undefined && (made.has(norm(src)) || EMPTY_NAME.test(src.replace(/["']/g, "")))) return "robocopy mirrors an empty folder onto its target, deleting every file there";
  }
  return null;
}

/** A name that says a database is for development or tests (a wipe of it is routine). */
const DEV_NAME = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|localhost|tmp|temp|scratch|sandbox|ci|e2e|demo|example|docker|ddev|lando|wp-env)(?:[^a-z]|$)/i;

/**
 * A web framework's whole database wiped with its confirmation or its production guard overridden: WP-CLI's `wp db
 * drop|reset --yes`, Laravel's `artisan db:wipe|migrate:fresh|migrate:reset --force` (`--force` exists to run them
 * in production). A development site (a local or test name in the line) passes, as does the command without its
 * override (it asks first, or refuses in production).
 */
function frameworkWipe(name: string, a: readonly string[]): string | null {
  const p = positional(a);
  if (name === "wp" && p[0] === "db" && (p[1] === "drop" || p[1] === "reset") && a.includes("--yes") && !a.some((t) => DEV_NAME.test(t))) return `wp db ${p[1]} --yes deletes a site's whole database`;
  if (name === "php" && /(?:^|\/)artisan$/.test(p[0] ?? "") && /^(?:db:wipe|migrate:fresh|migrate:reset)$/.test(p[1] ?? "") && a.includes("--force") && !a.some((t) => DEV_NAME.test(t))) return `artisan ${p[1]} --force wipes a production database`;
  return null;
}

/** Each check of a resolved command, with the finding type it reports. */
const CHECKS: readonly [ControlFinding["type"], (name: string, a: readonly string[]) => string | null][] = [
  ["dangerous_command.defense_evasion", watchOff],
  ["dangerous_command.privilege_escalation", adminToEveryone],
  ["dangerous_command.download_execute", remoteManifest],
  ["dangerous_command.database_destroy", frameworkWipe],
  ["dangerous_command.remote_access", sharedSession],
];

/** Judges one resolved command: its name and its words (a mirror of an empty folder is judged by commands.ts's walk). */
export function judgeControl(name: string, a: readonly string[]): ControlFinding[] {
  const out: ControlFinding[] = [];
  for (const [type, check] of CHECKS) {
    const detail = check(name, a);
    if (detail) out.push({ type, detail });
  }
  return out;
}

/** A line's mirrors of an empty folder: the folders `mkdir` (`md`) made, then an rsync or robocopy from one of them. */
export function judgeMirror(s: Script, nameOf: (c: Command) => { name: string; args: string[] }): ControlFinding | null {
  const made = new Set<string>();
  let budget = 400;
  for (const p of s.pipelines) {
    for (const c of p.commands) {
      if (--budget < 0) return null;
      const { name, args } = nameOf(c);
      // (Only a folder that must be new and empty: one `mkdir` without `-p` makes, or one under a temporary folder —
      // `mkdir -p dist && … && rsync --delete dist/ host:` mirrors a build's output, not nothing.)
      if ((name === "mkdir" || name === "md") && made.size < 32) {
        const parents = args.some((t) => /^-[a-zA-Z]*p/.test(t) || t === "--parents");
        for (const t of positional(args)) if (!parents || TEMP_DIR.test(t)) made.add(t.replace(/[/\\]+$/, ""));
      }
      const hit = emptyMirror(name, args, made);
      if (hit) return { type: "dangerous_command.recursive_delete", detail: hit };
    }
  }
  return null;
}

/** Words that make a line worth parsing for these checks (added to commands.ts's triggers). */
export const CONTROL_TRIGGERS = ["cloudtrail", "guardduty", "securityhub", "configservice", "delete-flow-logs", "macie2", "inspector2", "access-analyzer", "detective", "sinks", "diagnostic-settings", "vault", "clusterrolebinding", "rolebinding", "add-iam-policy-binding", "assignment", "tmate", "upterm", "sshx", "tty-share", "tunnel", "devtunnel", "anydesk", "teamviewer", "rustdesk", "robocopy", "helm", "oc", "wp", "artisan"];
