import { isOption, parseShell, tokenize, MAX_PARSED, type Command, type Pipeline, type Redirect, type Script, type Word } from "./shell.js";
import { readOnlyEncodedPowerShell } from "./powershell-encoded.js";
import { judgeFirewall, judgeNinth } from "./commands-ninth.js";
import { buildProduct, flashesImage, flashesPipedImage, stickFormat, vendorInstaller } from "./commands-benign.js";
import { judgeWipe, WIPE_TRIGGERS } from "./commands-wipe.js";
import { judgeReach, REACH_TRIGGERS, xargsCommand } from "./commands-reach.js";
import { judgeScope, notebookShell, PRODUCTION, SCOPE_TRIGGERS, unscopedSql } from "./commands-scope.js";
import { CONTROL_TRIGGERS, judgeControl, judgeMirror } from "./commands-control.js";
import { everyRowSql, judgeHandedScript, judgeRecords, RECORDS_TRIGGERS } from "./commands-records.js";
import { decidedEveryRow, DEVICE_WIPE, judgeUnfiltered, UNFILTERED_TRIGGERS, WINDOWS_DATA_EMPTIED } from "./commands-unfiltered.js";
import { CATALOG_TEXT_CHECKS } from "./commands-catalog.js";
import { erasedSql } from "./commands-erased.js";
import { auditErased, BULK_TEXT_CHECKS, bulkEnumerationDelete, safetyDefeated } from "./commands-bulk.js";
import { remoteRootOpened } from "./commands-opened.js";
import { endlessSend } from "./commands-flood.js";

/*
 * Dangerous commands, judged on the command line's grammar (shell.ts), never on text that merely mentions them: a
 * Dockerfile being written, a README quoting `curl … | bash`, a commit message. Only `command` sites (sites.ts) are
 * read. What is judged (docs/detection.md, "Commands"):
 *
 * - download → execute: a download piped into a shell or interpreter that runs its input, `bash <(curl …)`,
 *   `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`, a downloaded file run later in the same line, PowerShell cradles;
 * - decode → execute: `base64 -d | bash`, `eval "$(echo … | base64 -d)"`, interpreters running decoded code;
 * - network sockets as shells: `/dev/tcp` redirections of a shell, `nc -e`, `ncat --exec`, `socat … exec:`, a shell
 *   between network pipes (the mkfifo reverse shell), socket one-liners in Python, Perl, PHP, Ruby, Node, awk;
 * - encoded PowerShell (`-EncodedCommand`, `-enc`, `-e`);
 * - privileged containers and host namespaces: `docker run --privileged`, host root or docker.sock mounts,
 *   `--pid=host`, dangerous capabilities, `kubectl debug node/…`, pods with hostPID or privileged, `nsenter -t 1`;
 * - credential folders sent over the network: `tar` of `~/.ssh` piped to `curl`, `curl -F f=@~/.aws/credentials`;
 * - the destructive class: `rm -rf /` and its kin, mkfs, dd to disks, fork bombs, `chmod 777`, sudo to a root shell,
 *   writes to /etc/sudoers, clearing shell history.
 *
 * `-c` payloads of shells (and `eval`) are read as command lines of their own, to a bounded depth; the code given to
 * interpreters (`python -c`, `perl -e`, …) and PowerShell's `-Command` are read for the calls that make them
 * dangerous. Nothing here throws: a line the grammar cannot take is read by the tokenizer.
 */

export interface CommandFinding {
  type: string;
  start: number;
  end: number;
  /** What was recognised, in words (no arguments: a command line may carry secrets). */
  detail: string;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"]);
const INTERPRETERS = new Set(["python", "perl", "ruby", "php", "node", "nodejs", "deno", "bun", "lua", "tclsh", "osascript", "jshell", "groovy", "rscript", "r", "julia"]);
const POWERSHELL = new Set(["powershell", "pwsh"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "lwp-download", "lwp-request"]);
const DECODERS = new Set(["base64", "basenc", "base32", "openssl", "xxd", "uudecode", "gunzip", "zcat", "gzip", "bzip2", "bunzip2", "xz", "unxz", "rev", "tr"]);
const NETWORK = new Set(["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet", "curl", "wget", "ssh", "scp", "sftp", "rsync", "openssl", "http", "https", "xh", "ftp", "tftp", "aws", "gsutil", "rclone", "s3cmd", "az", "gcloud"]);
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "nice", "time", "timeout", "stdbuf", "command", "builtin", "exec", "setsid", "unbuffer", "ionice", "chronic", "torsocks", "proxychains", "proxychains4"]);
const CONTAINERS = new Set(["docker", "podman", "nerdctl", "ctr"]);

/**
 * Words that make a line worth parsing: without one of them (and without quotes or escapes inside a word, which can
 * hide one), no class above can be present.
 */
const TRIGGERS = new Set([
  ...SHELLS, ...INTERPRETERS, ...POWERSHELL, ...DOWNLOADERS, ...DECODERS, ...NETWORK, ...CONTAINERS,
  "eval", "source", "exec", "iex", "invoke-expression", "mkfifo", "kubectl", "nsenter", "chroot", "rm", "del", "rd", "rmdir", "remove-item",
  "mke2fs", "wipefs", "mkswap", "format", "dd", "shred", "chmod", "chown", "sudo", "doas", "su", "history", "crontab", "unset", "useradd",
  "usermod", "passwd", "visudo", "tee", "tar", "zip", "7z", "gpg", "awk", "gawk", "export", "histfile", "histsize", "python2", "python3", "nodejs",
  "truncate", "unlink", "wevtutil", "clear-eventlog", "certutil", "bitsadmin", "start-bitstransfer", "mshta", "msiexec", "regsvr32", "cmd",
  "vssadmin", "wmic", "wbadmin", "bcdedit", "diskshadow", "systemctl", "launchctl", "schtasks", "reg",
  "autossh", "ngrok", "bore", "chisel", "cloudflared",
  // (Seventh round) find's -delete, infrastructure teardown, the dynamic loader's preload file.
  "find", "terraform", "tofu", "pulumi", "cdk", "cdktf", "eksctl", "doctl", "gh", "ld.so.preload", "release_agent", "uevent_helper",
  // (Eighth round) credential stores, protections, miners (and stratum pools).
  "rundll32", "procdump", "procdump64", "lsass", "lsass.exe", "comsvcs", "comsvcs.dll", "mimikatz", "ntdsutil", "ntds.dit", "esentutl", "dump-keychain",
  "unshadow", "chainbreaker", "shadow", "gshadow", "master.passwd", "login.keychain", "login.keychain-db", "createdump", "nanodump", "pypykatz", "lsassy",
  "set-mppreference", "add-mppreference", "mpcmdrun", "stop-service", "set-service", "auditctl", "setenforce", "aa-teardown", "aa-disable", "ufw", "netsh",
  "set-netfirewallprofile", "pfctl", "socketfilterfw", "spctl", "csrutil", "xattr", "stratum+tcp", "stratum+ssl", "stratum+tls", "stratum2+tcp",
  "xmrig", "xmr-stak", "xmr-stak-rx", "cpuminer", "cpuminer-opt", "minerd", "cgminer", "bfgminer", "ethminer", "nbminer", "lolminer", "phoenixminer",
  "gminer", "teamredminer", "srbminer", "srbminer-multi", "nanominer", "ccminer", "xmrig-notls", "xmrig-cuda", "wildrig", "bzminer", "nheqminer", "kawpowminer",
  "mysqladmin", "dropdb",
  // (Ninth round) login scripts, root's keys, capabilities, firewalls (commands-ninth.ts).
  ".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", "authorized_keys", "setcap", "iptables", "ip6tables", "nft",
  // (Tenth round) clusters, data services, devices, snapshots (commands-wipe.ts).
  ...WIPE_TRIGGERS,
  // (Eleventh round) version-control stores, data services' match-all deletes, schedulers, eFuses, xargs (commands-reach.ts).
  ...REACH_TRIGGERS, "xargs",
  // (Twelfth round) SQL without a scope, lines ssh runs, the host entered, disks erased on macOS (commands-scope.ts).
  ...SCOPE_TRIGGERS,
  // (Thirteenth round) audit and detection turned off, admin to everyone, remote manifests, shared sessions (commands-control.ts).
  ...CONTROL_TRIGGERS,
  // (Fourteenth round) stores of record emptied, cloud backups deleted, a downloaded script handed to a program (commands-records.ts).
  ...RECORDS_TRIGGERS,
  // (Fifteenth round) unfiltered deletes, live data shredded, outside screens (commands-unfiltered.ts).
  ...UNFILTERED_TRIGGERS,
]);

/**
 * (Eighth round) Words that make a line worth parsing only with a second sign: `git` with a setting, a package manager
 * with plain HTTP or TLS checks off, a database client with a drop or a flush, `sc`/`net`/`service` stopping something.
 * Ordinary `git status` and `npm ci` lines stay unparsed.
 */
const CONDITIONAL_TRIGGERS = new Map<string, RegExp>([
  // (Ninth round) and a push with force.
  ...["git"].map((w) => [w, /\bconfig\b|(?:^|\s)-c\s|\bpush\b[^\n;&|]{0,200}(?:\s-f\b|\s--force\b(?!-)|\s-[A-Za-z]{1,5}f|\s\+[\w/])/] as [string, RegExp]),
  ...["pip", "pip3", "pipx", "uv", "npm", "pnpm", "yarn", "bun", "gem", "apt", "apt-get"].map((w) => [w, /http:\/\/|trusted-host|strict-ssl|TLS_REJECT|allow-unauthenticated|Insecure|Verify-Peer|HTTPSVERIFY|git\+|\.git\b|\.whl\b|\.tgz\b|\.tar\.gz\b/i] as [string, RegExp]),
  // (Fourteenth round) npx with a URL: a package from an address (commands-records.ts).
  ["npx", /:\/\//],
  ...["psql", "mysql", "mariadb", "sqlcmd", "clickhouse-client", "mongosh", "mongo", "cockroach", "redis-cli"].map((w) => [w, /drop|truncate|flush|delete|outfile|dumpfile|\bupdate\b/i] as [string, RegExp]),
  ...["sc", "net", "service", "security"].map((w) => [w, /\b(?:stop|delete|disabled?|dump-keychain)\b/i] as [string, RegExp]),
]);

/** (Eighth round) Whether a word names a program this detector judges (a tool named after it runs it: `kubectl`, `git`). */
export function isProgramName(word: string): boolean {
  const n = commandName(word);
  return n.length > 1 && (TRIGGERS.has(n) || CONDITIONAL_TRIGGERS.has(n) || ["helm", "gcloud", "az", "aws"].includes(n));
}

/** The command's name as judged: last path segment, lower case, without `.exe` or a version (`python3.12` → python). */
export function commandName(word: string): string {
  let n = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1).toLowerCase();
  if (n.endsWith(".exe")) n = n.slice(0, -4);
  const m = /^(python|perl|ruby|php|node|lua|pip)[\d.]*$/.exec(n);
  if (m) n = m[1] as string;
  return n;
}

/** Whether a line may hold anything judged here: one pass over its words. */
function worthParsing(text: string): boolean {
  if (/[<>]&\s{0,2}(?:[3-9]|\$)|(?:https?|ftp):\/\/\S{1,400}\.(?:inf|sct|hta|xslt?|csproj|vbproj|proj|targets|dll|ocx|cpl|vbs|vbe|wsf|lnk|msi|scr)\b/i.test(text)) return true;
  if (/[A-Za-z0-9][\\'"]|\$'|\$\{|\/dev\/(?:tcp|udp|sd|hd|nvme|xvd|vd|disk|mmcblk|rdisk)|_history\b|:\(\)|[A-Za-z]:\\/.test(text)) return true;
  const words = text.match(/[A-Za-z0-9_.+-]+/g);
  if (!words) return false;
  for (const w of words) {
    const l = w.toLowerCase();
    if (TRIGGERS.has(l) || /^mkfs/.test(l) || TRIGGERS.has(commandName(l))) return true;
    const second = CONDITIONAL_TRIGGERS.get(l);
    if (second !== undefined && second.test(text)) return true;
  }
  return false;
}

/** What one command is, once wrappers (`sudo`, `env`, `nohup`, …) are taken off. */
interface Resolved {
  name: string;
  /** The words after the name. */
  args: Word[];
  /** The name's word (for spans). */
  word: Word | null;
  /** Run through sudo or doas. */
  sudo: boolean;
  /** `sudo -s`, `sudo -i`, `sudo --login`: a root shell. */
  rootShell: boolean;
}

function resolve(c: Command): Resolved {
  const w = c.words;
  let i = 0;
  let sudo = false;
  let rootShell = false;
  // (Eighth round) Assignments before the command are its environment: `NODE_TLS_REJECT_UNAUTHORIZED=0 npm i …`.
  while (i + 1 < w.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((w[i] as Word).text)) i++;
  while (i < w.length) {
    const name = commandName((w[i] as Word).text);
    if (name === "busybox" && i + 1 < w.length) {
      i++;
      continue;
    }
    if (!WRAPPERS.has(name)) break;
    if (name === "sudo" || name === "doas") sudo = true;
    i++;
    while (i < w.length) {
      const t = (w[i] as Word).text;
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) i++;
      else if (t.startsWith("-") && t !== "-") {
        if ((name === "sudo" || name === "doas") && ((/^-[a-zA-Z]+$/.test(t) && /[si]/.test(t)) || t === "--shell" || t === "--login")) rootShell = true;
        // Options that take a value: sudo -u root, env -u NAME, nice -n 10, timeout -s KILL, ionice -c 3.
        const takes = (name === "sudo" && /^-[ugCDhprtU]$/.test(t)) || (name === "env" && /^-[uSC]$/.test(t)) || (name === "nice" && t === "-n") || (name === "timeout" && /^-[sk]$/.test(t)) || (name === "ionice" && /^-[cnp]$/.test(t)) || (name === "stdbuf" && /^-[ioe]$/.test(t));
        i += takes ? 2 : 1;
        if (t === "--") break;
      } else if (name === "timeout" && /^\d/.test(t)) i++;
      else break;
    }
  }
  const word = w[i] ?? null;
  return { name: word ? commandName(word.text) : "", args: w.slice(i + 1), word, sudo, rootShell };
}


/** The `-c` payload of a shell (`bash -c`, `sh -lc`, `zsh -xc`), or null. */
function shellPayload(args: Word[]): Word | null {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (!isOption(t)) return null;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(t) && !t.startsWith("--")) {
      for (let j = i + 1; j < args.length; j++) if (!isOption((args[j] as Word).text)) return args[j] as Word;
      return null;
    }
  }
  return null;
}

/** The code an interpreter is given on its command line (`python -c`, `perl -e`, `ruby -e`, `php -r`, `node -e`). */
function interpreterCode(name: string, args: Word[]): Word | null {
  const flags = name === "php" ? ["-r"] : name === "python" ? ["-c"] : name === "lua" ? ["-e"] : ["-e", "-E", "-p", "--eval", "--print"];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (flags.includes(t)) return args[i + 1] ?? null;
    // perl -le '…', python -Sc '…'
    if (/^-[a-zA-Z]+$/.test(t)) {
      if (flags.some((f) => f.length === 2 && t.endsWith(f[1] as string))) return args[i + 1] ?? null;
      continue;
    }
    // ruby -e'…', python -c'…': the code joined to its flag.
    const joined = flags.find((f) => f.length === 2 && t.startsWith(f));
    if (joined) return { ...w, text: t.slice(2) };
    if (!isOption(t)) return null;
  }
  return null;
}

/** Whether a shell or interpreter takes its program from standard input (`sh`, `bash -s`, `python -`, `sh /dev/stdin`). */
function runsStdin(r: Resolved): boolean {
  if (r.name === "iex" || r.name === "invoke-expression") return true;
  if (r.name === "source" || r.name === ".") return r.args.some((a) => a.text === "/dev/stdin" || a.text === "-");
  if (!SHELLS.has(r.name) && !INTERPRETERS.has(r.name) && !POWERSHELL.has(r.name)) return false;
  if (r.name === "busybox") return false;
  if (POWERSHELL.has(r.name)) return r.args.some((a) => a.text === "-" || /^-c(ommand)?$/i.test(a.text)) && r.args.some((a) => a.text === "-");
  if (SHELLS.has(r.name) && shellPayload(r.args)) return false;
  if (INTERPRETERS.has(r.name) && interpreterCode(r.name, r.args)) return false;
  for (const a of r.args) {
    const t = a.text;
    if (t === "-" || t === "/dev/stdin" || t === "-s" || t === "--") return true;
    if (isOption(t)) continue;
    return false; // a script file
  }
  return true;
}

const isShellOrInterpreter = (name: string) => SHELLS.has(name) || INTERPRETERS.has(name) || POWERSHELL.has(name);

const toStdout = (v: string | undefined) => v === "-" || v === "/dev/stdout";

/** Where a downloader writes: standard output (null), or a file (its name; "" when it names it after the URL). */
function downloadTarget(r: Resolved): string | null {
  const a = r.args.map((x) => x.text);
  const url = a.find((t) => /^(?:https?|ftp):\/\//i.test(t));
  const named = () => url?.replace(/[?#].*$/, "").split("/").pop() ?? "";
  if (r.name === "curl") {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      if (t === "-o" || t === "--output" || (/^-[a-zA-Z]*o$/.test(t) && !t.startsWith("--"))) return toStdout(a[i + 1]) ? null : (a[i + 1] ?? "");
      if (t.startsWith("--output=")) return toStdout(t.slice(9)) ? null : t.slice(9);
      if (t === "--remote-name" || t === "--remote-name-all" || (/^-[a-zA-Z]*O[a-zA-Z]*$/.test(t) && !t.startsWith("--"))) return named();
    }
    return null;
  }
  if (r.name === "wget" || r.name === "fetch" || r.name === "aria2c" || r.name === "lwp-download") {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      if (/^-[a-zA-Z]*O-$/.test(t) || t === "--output-document=-") return null;
      if (t === "-O" || t === "-o" || t === "--output-document" || (/^-[a-zA-Z]*[Oo]$/.test(t) && !t.startsWith("--"))) return toStdout(a[i + 1]) ? null : (a[i + 1] ?? "");
      if (t.startsWith("--output-document=")) return toStdout(t.slice(18)) ? null : t.slice(18);
    }
    return named();
  }
  return null;
}

/** A downloader whose download goes to standard output (`curl URL`, `wget -qO- URL`, `iwr URL`), not to a file. */
function downloadsToStdout(r: Resolved): boolean {
  return DOWNLOADERS.has(r.name) && downloadTarget(r) === null;
}

/** The file a downloader writes, when it writes one (`curl -o x.sh`, `curl -O URL`, `wget URL`, `wget -O x URL`). */
function downloadedFile(r: Resolved): string | null {
  const windows = windowsDownload(r);
  if (windows !== null) return windows;
  if (!DOWNLOADERS.has(r.name)) return null;
  const f = downloadTarget(r);
  return f ? f : null;
}

/**
 * Windows' own downloaders, and the file each writes: `certutil -urlcache -f URL FILE`, `bitsadmin /transfer job URL
 * FILE`, `Start-BitsTransfer -Source URL -Destination FILE`, `Invoke-WebRequest URL -OutFile FILE`.
 */
function windowsDownload(r: Resolved): string | null {
  const a = r.args.map((x) => x.text);
  const url = a.findIndex((t) => /^(?:https?|ftp):\/\//i.test(t));
  if (url < 0) return null;
  const after = (flag: RegExp) => {
    const i = a.findIndex((t) => flag.test(t));
    return i >= 0 ? (a[i + 1] ?? null) : null;
  };
  if (r.name === "certutil" && a.some((t) => /^[-/](?:urlcache|verifyctl)$/i.test(t))) return a[url + 1] ?? null;
  if (r.name === "bitsadmin" && a.some((t) => /^\/transfer$/i.test(t))) return a[url + 1] ?? null;
  if (r.name === "start-bitstransfer") return after(/^-destination$/i) ?? a[url + 1] ?? null;
  if (r.name === "iwr" || r.name === "invoke-webrequest" || r.name === "irm" || r.name === "invoke-restmethod") return after(/^-outfile$/i);
  return null;
}

/** Windows programs that run a file they are given, and those that run what a URL serves (`mshta http://…`). */
const WINDOWS_RUNNERS = new Set(["start", "call", "start-process", "saps", "rundll32", "msiexec", "wscript", "cscript", "mshta", "regsvr32", "invoke-item", "ii", "explorer"]);
const REMOTE_RUNNERS = new Set(["mshta", "msiexec", "regsvr32", "rundll32", "wscript", "cscript"]);

/** A stage that decodes its input (`base64 -d`, `xxd -r`, `openssl enc -d`, `gunzip`, `rev`, `tr`). */
function decodes(r: Resolved): boolean {
  if (!DECODERS.has(r.name)) return false;
  const a = r.args.map((x) => x.text);
  switch (r.name) {
    case "base64":
    case "basenc":
    case "base32":
      return a.some((t) => t === "--decode" || /^-[a-zA-Z]*[dD][a-zA-Z]*$/.test(t));
    case "openssl":
      return a.some((t) => t === "-d" || t === "-base64" || t === "base64" || t === "-a") && a.some((t) => t === "-d");
    case "xxd":
      return a.some((t) => /^-[a-zA-Z]*r/.test(t) || t === "-revert");
    case "gzip":
    case "bzip2":
    case "xz":
      return a.some((t) => t === "-d" || t === "--decompress" || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(t));
    default:
      return true;
  }
}

/** `echo -e '\x63…'` or `printf '\143…'`: text built from escapes, the shell's own decoder. */
function printsEscapes(r: Resolved): boolean {
  if (r.name !== "printf" && r.name !== "echo") return false;
  const escapes = r.args.reduce((n, a) => n + (a.text.match(/\\(?:x[0-9a-fA-F]{2}|[0-7]{3}|u[0-9a-fA-F]{4})/g)?.length ?? 0), 0);
  return escapes >= 4;
}

/** Paths that hold credentials: the folders (`~/.ssh`, `~/.aws`, …) and the files inside them. */
const CRED_FOLDER = /(?:^|[/\\])(?:\.ssh|\.aws|\.gnupg|\.kube|\.docker|\.azure|\.password-store|\.config[/\\]gcloud|\.config[/\\]gh|\.git-credentials|\.netrc|\.npmrc|\.pypirc|\.pgpass|\.vault-token)(?:[/\\].*)?$|(?:^|[/\\])(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.env)$|^\/etc\/(?:shadow|gshadow|sudoers)$/i;

export function isCredentialPath(text: string): boolean {
  const t = text.replace(/^@/, "").replace(/^[A-Za-z_][\w-]*=[@<]?/, "");
  return !t.endsWith(".pub") && CRED_FOLDER.test(t.replace(/[/\\]+$/, ""));
}

/** A command that reads credentials: one of its operands is a credential folder or file (or its input is one). */
function readsCredentials(r: Resolved, c: Command): boolean {
  if (["chmod", "chown", "chgrp", "ls", "stat", "mkdir", "touch", "ssh-keygen", "ssh-add", "test", "["].includes(r.name)) return false;
  return r.args.some((a) => !isOption(a.text) && isCredentialPath(a.text)) || c.redirects.some((d) => d.op.startsWith("<") && d.target !== null && isCredentialPath(d.target.text));
}

/** A command that sends to the network: a client with a remote end, or a `/dev/tcp` redirection. */
function sends(r: Resolved, c: Command): boolean {
  if (c.redirects.some((d) => d.target && /^\/dev\/(?:tcp|udp)\//.test(d.target.text))) return true;
  if (!NETWORK.has(r.name)) return false;
  const a = r.args.map((x) => x.text);
  if (r.name === "openssl") return a.includes("s_client");
  if (r.name === "aws") return a.includes("s3") || a.includes("s3api");
  if (r.name === "scp" || r.name === "rsync" || r.name === "sftp") return a.some((t) => /^[^/\\]+:/.test(t) && !/^[A-Za-z]:[\\/]/.test(t));
  return true;
}

/** curl/wget arguments that upload a credential file: `-d @f`, `--data-binary @f`, `-F x=@f`, `-T f`, `--post-file=f`. */
function uploadsCredentials(r: Resolved): boolean {
  const a = r.args.map((x) => x.text);
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    const next = a[i + 1] ?? "";
    if (r.name === "curl") {
      if (/^(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-F|--form(?:-string)?|--json)$/.test(t) && /[@<]/.test(next) && isCredentialPath(next.slice(next.search(/[@<]/) + 1))) return true;
      if (/^--(?:data(?:-binary|-urlencode)?|form|json)=/.test(t) && /[@<]/.test(t) && isCredentialPath(t.slice(t.search(/[@<]/) + 1))) return true;
      if ((t === "-T" || t === "--upload-file") && isCredentialPath(next)) return true;
    }
    if (r.name === "wget" && /^--(?:post|body)-file=/.test(t) && isCredentialPath(t.slice(t.indexOf("=") + 1))) return true;
    // (Thirteenth round) `-i <key>` is the identity scp logs in with, not a file it sends.
    if (["scp", "sftp"].includes(r.name) && t === "-i") {
      i++;
      continue;
    }
    if (["scp", "rsync", "sftp"].includes(r.name) && !isOption(t) && isCredentialPath(t) && a.some((x) => /^[^/\\]+:/.test(x) && !/^[A-Za-z]:[\\/]/.test(x))) return true;
  }
  return false;
}

/** The file an archiver writes (`tar czf F …`, `tar -cf F`, `tar --file=F`, `zip F …`, `7z a F …`), when its operands hold credentials. */
function archivedCredentials(r: Resolved, c: Command): string | null {
  if (!readsCredentials(r, c)) return null;
  const a = r.args.map((x) => x.text);
  if (r.name === "tar") {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      if (t.startsWith("--file=")) return t.slice(7);
      if ((t === "-f" || t === "--file" || (/^-?[a-zA-Z]*f$/.test(t) && i === 0) || /^-[a-zA-Z]*f$/.test(t)) && a[i + 1]) return a[i + 1] as string;
    }
  }
  if (r.name === "zip" || r.name === "gpg") return a.find((t) => !isOption(t)) ?? null;
  if (r.name === "7z") return a.filter((t) => !isOption(t))[1] ?? null;
  const out = c.redirects.find((d) => (d.op === ">" || d.op === ">>") && d.target);
  return out?.target?.text ?? null;
}

const HOST_MOUNTS = /^(?:\/|\/etc|\/root|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/var\/run|\/run|\/proc|\/sys|\/boot|\/dev|\/home|\/var\/lib\/docker|\/var\/lib\/kubelet|\/run\/containerd(?:\/containerd\.sock)?|\/var\/run\/containerd(?:\/containerd\.sock)?|\/var\/run\/crio\/crio\.sock|\/usr|\/bin|\/sbin|\/lib)$/;
/** Host mounts that give the host away even read-only: a container engine's socket answers whatever the mount says. */
const HOST_SOCKETS = /\.sock$/;
/** Host mounts a read-only monitoring container takes (node-exporter, cAdvisor): read-only, they are not an escape. */
const MONITORED = /^(?:\/|\/proc|\/sys|\/var\/run|\/run|\/var\/lib\/docker|\/dev|\/boot|\/usr|\/etc)$/;
/** What a container's own command does to reach its host: enter a namespace, change root, mount a disk or cgroup, load a module, rewrite a kernel hook. */
const ESCAPE_ACTION = /\b(?:chroot|nsenter|insmod|modprobe|debugfs|release_agent|core_pattern)\b|\bmount\s[^;|&\n]{0,60}\bcgroup|\/dev\/(?:sd|nvme|hd|xvd|vd|mmcblk|mapper\/|disk\/)/;

/** Flags of `docker run`/`create`/`exec` that take no value (clusters of `d`, `i`, `t`, `P`, `q` too). */
const BARE_FLAGS = new Set(["--rm", "--privileged", "--init", "--interactive", "--tty", "--detach", "--publish-all", "--read-only", "--no-healthcheck", "--quiet", "--oom-kill-disable"]);

/** The words after the image of a container command line: what the container runs (the whole line when unsure). */
function containerCommand(a: string[]): string {
  let i = 0;
  let verbs = 0;
  for (; i < a.length; i++) {
    const t = a[i] as string;
    if (!isOption(t)) {
      if (verbs < 2 && (t === "container" || t === "run" || t === "create" || t === "exec" || t === "start" || t === "update")) {
        verbs++;
        continue;
      }
      break; // the image (or, for exec, the container)
    }
    if (t.includes("=") || BARE_FLAGS.has(t) || /^-[ditPq]+$/.test(t)) continue;
    i++; // the flag's value
  }
  return a.slice(i + 1).join(" ");
}

/** A mount's read-only options (`:ro`, `,readonly`, `ro=true`). */
const readOnly = (options: string): boolean => /(?:^|[:,])(?:ro|readonly)(?:[=,:]|$)|(?:^|,)ro=(?:true|1)/.test(options);

/**
 * What makes a container run as the host: the flag or mount that does, or null. A container reaches its host by a
 * mount it can write of the host's system folders, an engine socket, or a disk device — or by weakened walls (
 * `--privileged`, host namespaces, dangerous capabilities, unconfined profiles) together with something that uses
 * them: its command entering the host (chroot, nsenter, mounting a disk or cgroup, a kernel hook), a mount of the
 * host's root, or the host's process namespace with the privileges to enter it. Weakened walls alone are how binfmt
 * registration, Docker-in-Docker, debuggers and sandboxed browsers run, and a read-only mount of /, /proc or /sys
 * is how monitoring agents run: neither is an escape by itself.
 */
function privilegedContainer(r: Resolved): string | null {
  const a = r.args.map((x) => x.text);
  const sub = a.filter((t) => !isOption(t));
  if (CONTAINERS.has(r.name)) {
    const verb = sub[0] === "container" ? sub[1] : sub[0];
    if (!["run", "create", "exec", "start", "update"].includes(verb ?? "") && r.name !== "ctr") return null;
    let weakened: string | null = null;
    let strong = false; // privileges enough to enter the host's namespaces (all capabilities, or SYS_ADMIN)
    let hostPid = false;
    let hostRoot: string | null = null; // a read-only mount of the host's system folders
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      const [flag, inline] = t.startsWith("--") && t.includes("=") ? [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)] : [t, undefined];
      const value = (inline ?? a[i + 1] ?? "").trim();
      if (flag === "--privileged" && inline !== "false") {
        weakened = "--privileged";
        strong = true;
      }
      if ((flag === "--pid" || flag === "--ipc" || flag === "--userns" || flag === "--cgroupns") && value === "host") {
        weakened ??= `${flag}=host`;
        if (flag === "--pid") hostPid = true;
      }
      if (flag === "--cap-add" && /^(?:cap_)?(?:all|sys_admin|sys_ptrace|sys_module|dac_read_search|sys_rawio)$/i.test(value)) {
        weakened ??= `--cap-add ${value.toUpperCase()}`;
        if (/all|sys_admin/i.test(value)) strong = true;
      }
      if (flag === "--security-opt" && /(?:apparmor|seccomp)[=:]unconfined|label[=:]disable|systempaths=unconfined/i.test(value)) weakened ??= `--security-opt ${value}`;
      if (flag === "--device" && /^\/dev\/(?:sd|nvme|hd|xvd|vd|mem|kmem|port|disk|mmcblk)/.test(value)) return "a host disk device";
      let source = "";
      let options = "";
      if (flag === "-v" || flag === "--volume") {
        const parts = value.split(":");
        source = parts[0]?.replace(/(?<=.)\/+$/, "") ?? "";
        options = parts.slice(2).join(":");
      }
      if (flag === "--mount") {
        const m = /(?:^|,)(?:source|src)=([^,]+)/.exec(value);
        source = m?.[1]?.replace(/(?<=.)\/+$/, "") ?? "";
        options = value;
      }
      if (source && HOST_MOUNTS.test(source)) {
        if (HOST_SOCKETS.test(source) || !readOnly(options) || !MONITORED.test(source)) return `a mount of the host's ${source}`;
        hostRoot ??= source;
      }
    }
    if (!weakened && !hostRoot) return null;
    if (ESCAPE_ACTION.test(containerCommand(a))) return hostRoot ? `a mount of the host's ${hostRoot} entered from the container` : `${weakened} and a command that enters the host`;
    if (hostPid && strong) return `${weakened} and the host's process namespace`;
    return null;
  }
  if (r.name === "kubectl") {
    if (sub[0] === "debug" && sub.some((t) => /^node\//.test(t))) return "kubectl debug on a node";
    // (`--profile=sysadmin` on a pod is a privileged container in the pod's own namespaces: not the node.)
    const overrides = a.find((t, i) => t.startsWith("--overrides=") || a[i - 1] === "--overrides");
    return overrides ? podReachesHost(overrides) : null;
  }
  if (r.name === "nsenter") {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      if (((t === "-t" || t === "--target") && a[i + 1] === "1") || t === "-t1" || t === "--target=1") return "nsenter into the host's init (pid 1)";
    }
  }
  return null;
}

const HOST_PATH = /hostPath["']?\s{0,8}:\s{0,8}\{?\s{0,8}["']?path["']?\s{0,8}:\s{0,8}["']?([^"',}\s]{1,200})/g;

/**
 * A pod manifest (kubectl `--overrides`, a manifest fed to `kubectl apply`) that reaches its node, as a container
 * does (privilegedContainer): a hostPath of the node's system folders or a container runtime's socket (read-only
 * monitoring mounts aside), privileges with the node's process namespace, or privileges or the node's namespaces
 * together with a command that enters the host (chroot, nsenter…). `privileged: true` alone, `hostNetwork` alone or
 * a hostPath of a log folder is how CNI plugins, node agents and log shippers run.
 */
export function podReachesHost(spec: string): string | null {
  const text = spec.length > MAX_CODE ? spec.slice(0, MAX_CODE) : spec;
  const privileged = /["']?privileged["']?\s{0,8}:\s{0,8}true|SYS_ADMIN|["']ALL["']|-\s{0,4}ALL\b/.test(text);
  const hostPid = /["']?host(?:PID|IPC)["']?\s{0,8}:\s{0,8}true/.test(text);
  const readOnly = /["']?readOnly["']?\s{0,8}:\s{0,8}true/.test(text);
  let hostRoot: string | null = null;
  HOST_PATH.lastIndex = 0;
  for (let m, n = 0; (m = HOST_PATH.exec(text)) !== null && n < 16; n++) {
    const source = (m[1] as string).replace(/(?<=.)\/+$/, "");
    if (!HOST_MOUNTS.test(source)) continue;
    if (HOST_SOCKETS.test(source) || !readOnly || !MONITORED.test(source)) return `a hostPath of the node's ${source}`;
    hostRoot ??= source;
  }
  if (privileged && hostPid) return "privileges and the node's process namespace";
  if ((privileged || hostPid || hostRoot) && ESCAPE_ACTION.test(text)) return "a command that enters the node";
  return null;
}

/** Ports of a machine's remote login: ssh, telnet, SMB, RDP, VNC, WinRM. */
const LOGIN_PORTS = new Set(["22", "23", "445", "3389", "5900", "5985", "5986"]);
const LOCAL_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[?::1\]?|0\.0\.0\.0)$/i;

/**
 * A tunnel that hands another host a way to this machine's remote login: `ssh -R [bind:]port:localhost:22 host`,
 * `ngrok tcp 3389`, `bore local 22 --to …`, `chisel client … R:…:localhost:22`, `cloudflared … --url tcp://localhost:22`.
 * Forwarding a local port to a remote service (`ssh -L 5432:db:5432`) or exposing a dev server's port is not.
 */
function remoteLoginExposed(name: string, a: string[]): string | null {
  const loginAt = (spec: string): boolean => {
    const parts = spec.replace(/^R:/i, "").split(":");
    if (parts.length < 2) return LOGIN_PORTS.has(spec);
    const port = parts[parts.length - 1] as string;
    const host = parts[parts.length - 2] as string;
    return LOGIN_PORTS.has(port) && (LOCAL_HOST.test(host) || parts.length === 2);
  };
  if (name === "ssh" || name === "autossh") {
    for (let i = 0; i < a.length && i < 64; i++) {
      const t = a[i] as string;
      const spec = t === "-R" ? a[i + 1] : /^-R\S/.test(t) ? t.slice(2) : /^-[A-Za-z]*R$/.test(t) ? a[i + 1] : undefined;
      if (spec !== undefined && spec.split(":").length >= 3 && loginAt(spec)) return `ssh -R exposes port ${spec.split(":").pop()} of this machine on the remote host`;
    }
  }
  if (name === "ngrok" && a[0] === "tcp" && a[1] !== undefined && loginAt(a[1])) return `ngrok exposes port ${a[1].split(":").pop()} of this machine`;
  if (name === "bore" && a[0] === "local" && a[1] !== undefined && LOGIN_PORTS.has(a[1])) return `bore exposes port ${a[1]} of this machine`;
  if (name === "chisel" && a[0] === "client" && a.some((t) => /^R:/i.test(t) && loginAt(t))) return "chisel exposes this machine's remote login";
  if (name === "cloudflared" && a.some((t) => /^(?:tcp|ssh|rdp):\/\/(?:localhost|127\.0\.0\.1):(\d+)$/i.test(t) && LOGIN_PORTS.has(t.slice(t.lastIndexOf(":") + 1)))) return "cloudflared exposes this machine's remote login";
  return null;
}

/** Code given to an interpreter, or PowerShell text: what its calls say it does. */
const CODE = {
  socket: /\bsocketConnection\s*\(|\bmake\.socket\s*\(|\bsocket\s*\.\s*socket\b|\bsocket\s*\.\s*tcp\s*\(|\bsocket\s*\.\s*connect\s*\(|\bTCPSocket\s*\(|\bSocket\s*\.\s*new\b|\bsocket\s*\(|\bTCPSocket\b|\bIO::Socket\b|\bfsockopen\s*\(|\bnet\s*\.\s*(?:Socket|connect|createConnection)\b|require\s*\(\s*['"]net['"]\s*\)|\/inet\/(?:tcp|udp)\/|\/dev\/(?:tcp|udp)\/|\bNet\.Sockets\.TCPClient\b|\bstream_socket_client\s*\(|\bsocket\.create_connection\b|\brequire\s*\(?\s*['"](?:socket|socket\.core)['"]|\[\s*socket\s+(?:-\w+\s+)?[\w.$-]{1,253}\s+\d{1,5}\s*\]|[.:]\s*connect\s*\(\s*\(?\s*['"][\w.:-]{1,253}['"]\s*,\s*\d{1,5}\s*\)?\s*\)/i,
  shell: /\bdup2\b|\bos\s*\.\s*execute\b|\bio\s*\.\s*popen\b|\bProcess\s*\.\s*(?:Start|spawn)\b|\bRuntime\s*\.\s*getRuntime\b|\bpty\s*\.\s*spawn\b|\bsubprocess\b|\/bin\/(?:ba|z|da|k)?sh\b|\bcmd(?:\.exe)?\b|\bchild_process\b|\bproc_open\b|\bshell_exec\b|\bpassthru\b|\bpopen\b|\bexec\s*[("'`]|\bsystem\s*\(|\bspawn\s*\(|\bIO\.popen\b|\bSTDIN\s*\.\s*reopen\b|\bexecSync\b|\|&\s*getline|\bGetStream\s*\(|\bfdopen\b|\bsystem\s*[$@]|\bexec\s*[$@{]/i,
  decode: /\bb64decode\b|\bbase64_decode\b|\bdecode_base64\b|\bdecodebytes\b|\ba2b_base64\b|['"]base64['"]|\batob\s*\(|\bFromBase64String\b|\bunpack\s*\(\s*['"]m|\.decode\s*\(\s*['"](?:base64|hex|rot13|rot_13)|\bcodecs\s*\.\s*decode\b|\bbytes\s*\.\s*fromhex\b|\bunhexlify\b|\bzlib\s*\.\s*decompress\b|\bgzinflate\b|\bstr_rot13\b|\bGZipStream\b|\bDeflateStream\b/i,
  // (Eighth round) `eval` and `Function` handed over as values (`.then(eval)`, `.then(Function)`), Ruby's and Perl's
  // `eval` without parentheses, node's vm.
  run: /[(,]\s{0,4}(?:eval|Function|exec)\s{0,4}\)|\beval\s{1,4}(?=[\w$@(])|\bvm\s*\.\s*runIn|\bexec\s*\(|\beval\s*\(|\bcompile\s*\(|\bnew\s+Function\s*\(|\bsystem\s*\(|\bpopen\b|\bsubprocess\b|\bchild_process\b|\bexecSync\b|\bspawn\s*\(|\binstance_eval\b|\bassert\s*\(|\bcreate_function\b|\bpassthru\b|\bshell_exec\b|\bIEX\b|\bInvoke-Expression\b|\bInvoke-Command\b|\[ScriptBlock\]::Create\b|\bvm\s*\.\s*run/i,
  download: /\burlopen\b|\burllib\b|\brequests\s*\.\s*get\b|\bhttp\.client\b|\bhttplib\b|\bLWP::|\bNet::HTTP\b|\bHTTP::Tiny\b|\bopen-uri\b|\bURI\s*\.\s*open\b|\bfile_get_contents\s*\(\s*['"]https?:|\bcurl_exec\b|\bhttps?\s*\.\s*get\s*\(|\bfetch\s*\(|\bDownloadString\b|\bDownloadData\b|\bDownloadFile\b|\bInvoke-WebRequest\b|\bInvoke-RestMethod\b|\biwr\b|\birm\b|\bNet\.WebClient\b|\bStart-BitsTransfer\b|\bwget\b|\bcurl\b|\brequire\s*\(\s*['"]https?['"]\s*\)/i,
  // Code written to a file and loaded from it (with `download`).
  writes: /\bcreateWriteStream\b|\bwriteFile(?:Sync)?\b|\bopen\s*\([^)]{0,200}['"][wa]b?\+?['"]|\burlretrieve\b|\bFile\.write\b|\bIO\.copy_stream\b/,
  loads: /\brequire\s*\(\s*['"`](?:\/|\.{1,2}\/|[A-Za-z]:)|\bimport\s*\(\s*['"`](?:\/|\.{1,2}\/|file:)|\bexecfile\b|\brunpy\b|\bexec\s*\(\s*open\b|\bimportlib\b|\bload\s*\(\s*['"](?:\/|\.{1,2}\/)|\bdlopen\b|\bctypes\.CDLL\b/,
};
const MAX_CODE = 16384;
/** Files that hold data, not code: what a script reads when handed one as its argument. */
const DATA_FILE = /\.(?:csv|tsv|json|jsonl|ndjson|parquet|feather|arrow|xlsx?|xml|ya?ml|txt|md|geojson|nc|h5|hdf5|npy|npz|png|jpe?g|gif|webp|tiff?|pdf|wav|mp3|mp4|mov|fasta|fastq|bam|vcf)$/i;
/** Python code: an import at a line's start. */
const PYTHON_CELL = /^[ \t]{0,8}(?:import[ \t]{1,4}[\w.]{1,64}|from[ \t]{1,4}[\w.]{1,64}[ \t]{1,4}import\b)/m;
/** Loaders that run code stored in the file: pickle and its kin (torch.load only with its weights-only guard off). */
const UNPICKLES = /\b(?:pickle|cPickle|_pickle|dill|cloudpickle|joblib|shelve)\s{0,4}\.\s{0,4}(?:loads?|open)\s{0,4}\(|\bread_pickle\s{0,4}\(|\bmarshal\s{0,4}\.\s{0,4}loads?\s{0,4}\(|\btorch\s{0,4}\.\s{0,4}load\s{0,4}\([^)]{0,300}weights_only\s{0,4}=\s{0,4}False|\ballow_pickle\s{0,4}=\s{0,4}True/;
/** A call that runs the code at a URL (judgeCode). */
const REMOTE_SOURCE = /\b(?:source|source_url|source_gist|sys\.source|evalfile|dofile|loadfile)\s{0,4}\(\s{0,4}(?:url\s{0,4}\(\s{0,4})?["'](?:https?|ftp):\/\/|\binclude\s{0,4}\(\s{0,4}download\s{0,4}\(|\beval\s{0,4}\(\s{0,4}parse\s{0,4}\(\s{0,4}(?:text\s{0,4}=\s{0,4})?readLines\s{0,4}\(\s{0,4}["'](?:https?|ftp):\/\//i;

/** Judges a piece of code (an interpreter's `-c`, PowerShell text): the dangerous class it belongs to, or null. */
function judgeCode(code: string, powershell: boolean): { type: string; detail: string } | null {
  const c = code.length > MAX_CODE ? code.slice(0, MAX_CODE) : code;
  if (CODE.socket.test(c) && CODE.shell.test(c)) return { type: "dangerous_command.reverse_shell", detail: "opens a network socket and gives it a shell" };
  const runs = CODE.run.test(c);
  // (Thirteenth round) One call that fetches code from a URL and runs it: R's `source("https://…")` and
  // `source_url(…)`, Julia's `include(download(…))`, Lua's `dofile` of a URL.
  if (REMOTE_SOURCE.test(c)) return { type: "dangerous_command.download_execute", detail: "runs code a URL serves" };
  if (runs && CODE.download.test(c)) return { type: "dangerous_command.download_execute", detail: "downloads code and runs it" };
  // Written to a file and loaded from it: `https.get(…).pipe(createWriteStream('/tmp/p.js'))…require('/tmp/p.js')`.
  if (CODE.download.test(c) && CODE.writes.test(c) && CODE.loads.test(c)) return { type: "dangerous_command.download_execute", detail: "downloads code to a file and loads it" };
  if (runs && CODE.decode.test(c)) return { type: "dangerous_command.decode_execute", detail: "decodes hidden code and runs it" };
  // (Fourteenth round) A pickle fetched from a URL and loaded: unpickling runs whatever the file says.
  if (CODE.download.test(c) && /\b(?:https?|ftp):\/\//i.test(c) && UNPICKLES.test(c)) return { type: "dangerous_command.download_execute", detail: "loads a pickle downloaded from a URL (unpickling runs its code)" };
  const encoded = powershell ? /(?:^|\s)-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc|encodedco|encodedcom|encodedcomm|encodedcomma|encodedcomman|encodedcommand)\s+([A-Za-z0-9+/=]{8,})/i.exec(c) : null;
  // (Ninth round) A script that only reads and prints, decoded, is no hidden command (powershell-encoded.ts).
  if (encoded && !readOnlyEncodedPowerShell(encoded[1] as string)) return { type: "dangerous_command.powershell_encoded", detail: "runs an encoded PowerShell command" };
  return null;
}

const POWERSHELL_ENCODED = /^[-/](?:e|ec|en|enc|enco|encod|encode|encoded|encodedc|encodedco|encodedcom|encodedcomm|encodedcomma|encodedcomman|encodedcommand)$/i;

/** Recursive delete targets that wipe a system or a home: `/`, `/*`, `~`, `$HOME`, `*` at the top, system folders. */
const WIPE_TARGET = /^(?:\/|\/\*|~|~\/|~\/\*|\$HOME\/?|\$\{HOME\}\/?|\$HOME\/\*|\*|\/(?:bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|srv|sys|usr|var|Users|System|Applications|Library)(?:\/|\/\*)?)$/;
const DISK = /^\/dev\/(?:sd[a-z]|hd[a-z]|nvme\d|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d|rdisk\d)/;
const ROOT_FILES = /^\/etc\/(?:sudoers(?:\.d\/.*)?|passwd|shadow|gshadow)$/;

/** Logs an intruder wipes: logins, audit, system messages (not an application's own logs). */
const SECURITY_LOG = /^\/var\/log\/(?:auth\.log|secure|wtmp|btmp|lastlog|utmp|faillog|syslog|messages|kern\.log|audit(?:\/.*)?|journal(?:\/.*)?)(?:\.\d+)?$|^\/var\/run\/utmp$/;
/** Where a line written makes a program run again later: cron, login scripts, services, launch agents. */
const PERSIST = /^(?:\/etc\/cron(?:tab$|\.d\/|\.(?:hourly|daily|weekly|monthly)\/)|\/var\/spool\/cron\/|\/etc\/rc\.local$|\/etc\/profile(?:$|\.d\/)|\/etc\/bash\.bashrc$|\/etc\/init\.d\/|\/etc\/systemd\/system\/|(?:~|\$HOME|\$\{HOME\}|\/root|\/home\/[^/]+|\/Users\/[^/]+)\/(?:\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)$|\.config\/(?:systemd\/user\/|fish\/config\.fish$|autostart\/)|Library\/LaunchAgents\/)|\/Library\/Launch(?:Agents|Daemons)\/)/;
/** A cron line's schedule (five fields or `@reboot`), and the user field of a system crontab before an absolute path. */
const CRON_SCHEDULE = /^\s{0,8}(?:@[a-z]{3,10}|(?:[\d*\/,-]{1,20}[ \t]{1,4}){4}[\d*\/,-]{1,20})[ \t]{1,4}(?:[a-z_][\w-]{0,31}[ \t]{1,4}(?=\/))?/i;

/** Where dropped programs are staged: temp folders, app data, the public profile, shared memory. */
const STAGING = /^["']?(?:%(?:APPDATA|LOCALAPPDATA|TEMP|TMP|PUBLIC|PROGRAMDATA)%|\$env:(?:APPDATA|LOCALAPPDATA|TEMP|TMP|PUBLIC|ProgramData)|[A-Za-z]:\\(?:Users\\Public|ProgramData|Windows\\Temp|Users\\[^\\]{1,64}\\AppData)\\|\/tmp\/|\/var\/tmp\/|\/dev\/shm\/)/i;

/**
 * A launch agent's property list: its `ProgramArguments` strings are the command's words (`/bin/sh`, `-c`, `curl … |
 * sh`): the script after a shell's `-c`, or the words joined. At most 64 strings.
 */
function plistCommand(line: string): string {
  const strs: string[] = [];
  const re = /<string>([^<]{0,4096})<\/string>/g;
  for (let m; (m = re.exec(line)) !== null && strs.length < 64; ) strs.push((m[1] as string).replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"'));
  const c = strs.findIndex((x, i) => x === "-c" && i > 0 && /(?:^|\/)(?:ba|z|da|k)?sh$/.test(strs[i - 1] as string));
  return c > 0 && strs[c + 1] !== undefined ? (strs[c + 1] as string) : strs.join(" ");
}

/**
 * Persistence: text written where it will run again (a crontab fed on stdin, a cron file, a login script, a service
 * or launch agent), judged as the command line it will be. A cron job that pings a health check is not refused; one
 * that runs a download, a reverse shell or decoded code is, as `persistence` besides its own class.
 */
function judgePersistence(s: Script, ctx: Context, add: (type: string, detail: string, start: number, end: number) => void): void {
  let sink: string | null = null;
  const texts: Word[] = [];
  const budget = { n: 400 };
  // Files downloaded in the same line: registering one to run again is running a download.
  const fetched = new Set<string>();
  const walk = (x: Script) => {
    for (const p of x.pipelines) {
      for (const c of p.commands) {
        if (--budget.n < 0) return;
        const r = resolve(c);
        const a = r.args.map((w) => w.text);
        if (r.name === "crontab" && !a.some((t) => t === "-l" || t === "-r" || t === "-e")) sink = "a crontab";
        // (After a here-document's start, the grammar keeps a following `> file` in the target's text.)
        const writesTo = (d: Redirect) => d.target !== null && (d.op.startsWith(">") ? PERSIST.test(d.target.text) : d.op.startsWith("<<") && PERSIST.test(d.target.text.slice(d.target.text.lastIndexOf(">") + 1).trim()));
        if (c.redirects.some(writesTo) || (r.name === "tee" && a.some((t) => PERSIST.test(t)))) sink = "a file that runs at login or on a schedule";
        if ((r.name === "echo" || r.name === "printf") && texts.length < 8) for (const w of r.args) if (!isOption(w.text) && texts.length < 8) texts.push(w);
        const file = downloadedFile(r);
        if (file && fetched.size < 16) fetched.add(baseName(file));
        // Windows: a scheduled task's `/tr` and a Run key's `/d` are command lines run at logon or on a schedule.
        const after = (flag: RegExp) => r.args[r.args.findIndex((w) => flag.test(w.text)) + 1];
        if (r.name === "schtasks" && a.some((t) => /^[-/]create$/i.test(t))) {
          const tr = after(/^[-/]tr$/i);
          if (tr && texts.length < 8) {
            texts.push(tr);
            sink = "a scheduled task";
          }
        }
        if (r.name === "reg" && /^add$/i.test(a[0] ?? "") && /CurrentVersion\\?Run(?:Once)?(?![A-Za-z])|Winlogon\b/i.test(a[1] ?? "")) {
          const d = after(/^[-/]d$/i);
          if (d && texts.length < 8) {
            texts.push(d);
            sink = "a Run key";
          }
        }
        for (const d of c.redirects) if (d.body !== undefined && texts.length < 8) texts.push({ text: d.body, start: c.start, end: c.end, subs: [] });
        for (const w of c.words) for (const sub of w.subs) walk(sub);
      }
    }
  };
  walk(s);
  if (sink === null || ctx.depth >= MAX_DEPTH) return;
  // A program registered to run at logon from a staging folder (temp, app data, the public profile): where dropped
  // programs live; installers register their own entries, an agent has no business adding one there (sixth round).
  for (const w of texts) {
    if (STAGING.test(w.text.trim())) {
      add("dangerous_command.persistence", `registers a program in a staging folder into ${sink}`, w.start, w.end);
      return;
    }
  }
  for (const w of texts) {
    // (`printf '[Service]\nExecStart=…'`: the escapes printf turns into lines.)
    for (const raw of w.text.split(/\n|\\n/, 16)) {
      if (ctx.parses >= MAX_PARSES) return;
      const line = raw.includes("<string>") ? plistCommand(raw) : raw;
      const m = CRON_SCHEDULE.exec(line);
      // (A systemd unit's `ExecStart=` line runs what follows it.)
      const cmd = m ? line.slice(m[0].length) : line.replace(/^\s{0,8}Exec[A-Za-z]{0,20}=[-@:+!]{0,4}/, "");
      if (fetched.size > 0 && cmd.split(/[\s"'=;]+/).some((t) => t !== "" && fetched.has(baseName(t)))) {
        add("dangerous_command.download_execute", "registers a downloaded file to run again", w.start, w.end);
        add("dangerous_command.persistence", `installs a download into ${sink}`, w.start, w.end);
        continue;
      }
      if (!worthParsing(cmd)) continue;
      ctx.parses++;
      const inner: CommandFinding[] = [];
      judgeText(cmd, { depth: ctx.depth + 1, parses: ctx.parses }, inner);
      for (const f of inner) add(f.type, f.detail, w.start, w.end);
      if (inner.length > 0) add("dangerous_command.persistence", `installs what it runs into ${sink}`, w.start, w.end);
    }
  }
}

/**
 * Commands that destroy a machine's own way back: Volume Shadow Copies (`vssadmin delete shadows`, `wmic shadowcopy
 * delete`, `vssadmin resize shadowstorage` to a sliver), Windows Backup's catalog and system-state backups (`wbadmin
 * delete catalog|systemstatebackup|backup`), boot recovery (`bcdedit … recoveryenabled no`, `bootstatuspolicy
 * ignoreallfailures`), and a Mac's local Time Machine snapshots of `/` all at once. Listing them (`vssadmin list
 * shadows`, `wbadmin get versions`) is not.
 */
function recoveryDeleted(name: string, a: string[]): string | null {
  const has = (re: RegExp) => a.some((t) => re.test(t));
  if (name === "vssadmin" && has(/^delete$/i) && has(/^shadows?$/i)) return "vssadmin deletes the shadow copies";
  if (name === "vssadmin" && has(/^resize$/i) && has(/^\/maxsize=\d{1,3}(?:b|kb|mb)$/i)) return "vssadmin shrinks shadow storage to nothing";
  if ((name === "wmic" || name === "wmic.exe") && has(/^shadowcopy$/i) && has(/^delete$/i)) return "wmic deletes the shadow copies";
  if (name === "wbadmin" && /^delete$/i.test(a[0] ?? "") && /^(?:catalog|systemstatebackup|backup)$/i.test(a[1] ?? "")) return `wbadmin deletes the ${(a[1] as string).toLowerCase()}`;
  if (name === "bcdedit" && ((has(/^recoveryenabled$/i) && has(/^(?:no|off|0|false)$/i)) || (has(/^bootstatuspolicy$/i) && has(/^ignoreallfailures$/i)))) return "bcdedit turns off boot recovery";
  if (name === "diskshadow" && has(/^delete$/i) && has(/^shadows$/i)) return "diskshadow deletes the shadow copies";
  return null;
}

/*
 * (Seventh round) Principles of a command line's grammar rather than of its programs' names:
 * - a shell or interpreter whose input comes from, and whose output goes to, descriptors other than the terminal's
 *   (`<&9 >&9`, `<&${COPROC[0]} >&${COPROC[1]}`, `>&$REPLY` twice) talks to whatever opened them — a socket;
 * - find starting at the root or the home folder with -delete or an -exec of rm deletes everything there;
 * - a delete or destroy of a whole scope (a project, namespace, cluster, stack, resource group, database, bucket,
 *   repository, account) with the confirmation turned off (`--yes`, `-auto-approve`, `--quiet`, `--force`) is
 *   irreversible and unreviewed, whatever the CLI; an IaC `destroy` is the whole stack by itself;
 * - a file downloaded earlier handed to any program that is not one that inspects, moves or unpacks it, when the file
 *   is of a kind that carries code; and a remote URL of such a kind handed to a program that is not a downloader,
 *   browser or interpreter, is code from the network run.
 */
const STANDARD_FD = /^[012]$|^-$/;
function shellStreamsElsewhere(c: Command): boolean {
  const inputs = c.redirects.filter((d) => d.op === "<&" && d.target && !STANDARD_FD.test(d.target.text)).map((d) => d.target?.text);
  const outputs = c.redirects.filter((d) => d.op === ">&" && d.target && !STANDARD_FD.test(d.target.text)).map((d) => d.target?.text);
  if (inputs.length > 0 && outputs.length > 0) return true;
  // (`0>&fd` reads as `>&fd`: the same odd descriptor twice is input and output.)
  return outputs.length >= 2 && outputs.some((t, i) => outputs.indexOf(t) !== i);
}

function findWipes(a: string[]): boolean {
  const starts: string[] = [];
  for (const t of a) {
    if (t.startsWith("-") || t === "(" || t === "!") break;
    starts.push(t);
  }
  if (!starts.some((t) => WIPE_TARGET.test(t))) return false;
  const i = a.findIndex((t) => t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir");
  return a.includes("-delete") || (i >= 0 && /^(?:rm|shred|unlink|srm)$/.test(commandName(a[i + 1] ?? "")));
}

const TEARDOWN_VERBS = /^(?:delete|destroy|remove|rm|rb|purge|drop|terminate)$/i;
const TEARDOWN_SCOPES = /^(?:projects?|namespaces?|ns|clusters?|stacks?|group|resource-?groups?|databases?|db|dbs|buckets?|repos?|repository|repositories|accounts?|subscriptions?|organi[sz]ations?|orgs?|tenants?|workspaces?|vaults?|keyvaults?|zones?|domains?)$/i;
const IAC = new Set(["terraform", "tofu", "pulumi", "cdk", "cdktf", "sst", "serverless", "sls"]);
const NO_CONFIRM = /^(?:-{1,2}auto-approve(?:=true)?|--yes|-y|--quiet|-q|--force|-f|-force|--grace-period=0|--no-prompt|--non-interactive|--confirm(?:=\S+)?|--disable-nodegroup-eviction|--force-delete|--skip-confirmation)$/i;

function scopeTeardown(name: string, a: string[]): string | null {
  if (!a.some((t) => NO_CONFIRM.test(t))) return null;
  const words = a.filter((t) => !t.startsWith("-"));
  const verb = words.findIndex((t) => TEARDOWN_VERBS.test(t));
  if (verb < 0) return null;
  if (IAC.has(name) && /^destroy$/i.test(words[verb] as string)) return `${name} destroy with the confirmation turned off`;
  if (/^rb$/i.test(words[verb] as string)) return `${name} removes a bucket with the confirmation turned off`;
  // The scope named next to the verb: `gcloud projects delete`, `kubectl delete namespace`, `az group delete`.
  const scope = [words[verb - 1], words[verb + 1]].find((t) => t !== undefined && TEARDOWN_SCOPES.test(t));
  return scope ? `${name} ${words[verb]?.toLowerCase()} of a whole ${scope.toLowerCase()} with the confirmation turned off` : null;
}

const KERNEL_HOOK = /(?:^|\/)(?:release_agent|uevent_helper)$|^\/proc\/sys\/kernel\/modprobe$/;
const LOADER_PRELOAD = /^\/etc\/ld\.so\.preload$/;

/** Kinds of file that carry code a program runs or loads. */
const CODE_FILE = /\.(?:inf|sct|hta|xslt?|csproj|vbproj|proj|targets|dll|ocx|cpl|so|dylib|ps1|psm1|vbs|vbe|js|jse|wsf|bat|cmd|exe|scr|msi|jar|lnk|sh|py|pl|rb)$/i;
/** Windows kinds: a remote one handed to a program is run by it (`cmstp /s https://…/p.inf`, `msxsl … https://…/t.xsl`). */
const REMOTE_CODE = /(?:^|[:=])(?:https?|ftp):\/\/[^\s?#]{1,400}\.(?:inf|sct|hta|xslt?|csproj|vbproj|proj|targets|dll|ocx|cpl|vbs|vbe|wsf|lnk|msi|scr)(?:[?#]\S*)?$/i;
/** Programs that inspect, move, unpack or delete a file, print or fetch it: handing a download to them runs nothing. */
const HANDLES_FILES = new Set(["sha256sum", "sha1sum", "sha512sum", "md5sum", "shasum", "b2sum", "cksum", "gpg", "gpgv", "cosign", "file", "ls", "stat", "cat", "less", "more", "head", "tail", "wc", "diff", "cmp", "grep", "strings", "hexdump", "xxd", "od", "mv", "cp", "rm", "del", "move", "copy", "move-item", "copy-item", "remove-item", "tar", "unzip", "7z", "gunzip", "xz", "unxz", "bunzip2", "zcat", "expand-archive", "get-filehash", "get-content", "gc", "type", "certutil", "chmod", "chown", "touch", "test", "[", "echo", "printf", "git", "open", "xdg-open", "start", "explorer", "code", "vim", "vi", "nano", "jq", "yq"]);
const OPENS_URLS = new Set(["open", "xdg-open", "firefox", "chrome", "chromium", "msedge", "lynx", "w3m", "links", "git", "npm", "npx", "pnpm", "yarn", "pip", "pipx", "uv", "docker", "podman", "kubectl", "helm", "gh", "code", "jq", "echo", "printf"]);

function remoteCodeOperand(r: Resolved): string | null {
  if (r.name === "" || DOWNLOADERS.has(r.name) || NETWORK.has(r.name) || isShellOrInterpreter(r.name) || OPENS_URLS.has(r.name) || WINDOWS_RUNNERS.has(r.name)) return null;
  const w = r.args.find((x) => REMOTE_CODE.test(x.text));
  return w ? (/\.(\w+)(?:[?#]\S*)?$/.exec(w.text)?.[1] ?? "file").toLowerCase() + " file" : null;
}

/** Whether a formatting program's operands name a device (or leave it unsaid): not a regular file's path. */
function formatsDevice(a: readonly string[]): boolean {
  const operands = a.filter((t) => !isOption(t));
  return operands.length === 0 || operands.some((t) => t.startsWith("/dev/") || DISK.test(t) || t.includes("$") || /^[A-Za-z]:\\?$/.test(t));
}

/*
 * (Eighth round, "cmds") Technique families judged on the resolved command — its program and its words — rather than
 * on any one example's text (docs/detection.md, "Eighth round: technique families"):
 *
 * - credential_dump: the stores of a machine's credentials copied or dumped where they can be cracked offline — the
 *   registry hives SAM/SYSTEM/SECURITY saved, LSASS's memory dumped by any dumper (named by process, or through
 *   comsvcs.dll's MiniDump), NTDS.dit or hives taken from a shadow copy or through ntdsutil's IFM, a keychain dumped,
 *   /etc/shadow copied or unshadowed;
 * - defense_evasion: a machine's protections turned off — Defender's real-time protection or an exclusion of a whole
 *   drive, profile or staging folder, security services (Defender, EDR agents, Sysmon, auditd, firewalls, SELinux,
 *   AppArmor) stopped or disabled, Gatekeeper or SIP off, quarantine stripped from an app that the same line opens;
 * - cryptominer: a miner run (by its program, or any program given a stratum pool);
 * - git_exec_config: git told to run a program from its configuration (core.fsmonitor, core.hooksPath, sshCommand,
 *   credential helpers, pagers, diff and merge drivers, filters) where that program fetches or decodes code, is
 *   dangerous by itself, lives in a staging folder, or comes with a clone (a hooks path inside the fetched tree);
 * - untrusted_install: a package installed from an index reached over plain HTTP, or with its TLS checks off;
 * - database_destroy: a database or schema dropped with force (or a production one), a store flushed on a remote host.
 */

const HIVES = /^(?:HKLM|HKEY_LOCAL_MACHINE)\\?(?:SAM|SYSTEM|SECURITY)\\?$/i;
const DUMPERS = new Set(["procdump", "procdump64", "createdump", "sqldumper", "dumpert", "nanodump", "mimikatz", "pypykatz", "lsassy", "out-minidump", "rdrleakdiag", "tttracer", "dump64", "handlekatz", "secretsdump.py", "secretsdump", "comsvcs"]);

function credentialDump(r: Resolved, a: string[], line: string): string | null {
  const name = r.name;
  const has = (re: RegExp) => a.some((t) => re.test(t));
  if (name === "reg" && /^(?:save|export|copy)$/i.test(a[0] ?? "") && HIVES.test(a[1] ?? "")) return `reg ${a[0]?.toLowerCase()} of a credential hive`;
  if (has(/^lsass(?:\.exe|\.dmp)?$/i) && (DUMPERS.has(name) || has(/^-m[ap]$|^-mm$|^-r$|^-?-?(?:full|dump|minidump)$/i) || /dump/i.test(name))) return `${name} dumps the memory of lsass`;
  if (name === "rundll32" && /comsvcs(?:\.dll)?/i.test(line) && /minidump|#\+?24\b/i.test(line)) return "rundll32 comsvcs.dll MiniDump of a process";
  if (name === "mimikatz" || has(/^(?:"?)(?:sekurlsa|lsadump|kerberos|crypto|dpapi)::/i)) return "a credential dumper";
  if (name === "ntdsutil" && has(/^ifm$|create\s+full|^ac(?:tivate)?\s+i(?:nstance)?\s+ntds$/i)) return "ntdsutil copies the domain's NTDS database";
  if (["copy", "cp", "copy-item", "xcopy", "robocopy", "esentutl", "cat", "type", "move", "dd", "tar", "7z", "zip", "rsync", "scp", "ditto"].includes(name) && has(/ntds\.dit$|HarddiskVolumeShadowCopy\d+[\\/].*(?:SAM|SYSTEM|SECURITY|ntds\.dit)$/i)) return `${name} copies a credential store from the system or a shadow copy`;
  if (name === "security" && /^dump-keychain$/i.test(a[0] ?? "")) return "security dump-keychain";
  if (["cp", "ditto", "tar", "zip", "rsync", "scp", "cat"].includes(name) && has(/login\.keychain(?:-db)?$/i)) return `${name} copies the login keychain`;
  if (name === "chainbreaker" || name === "unshadow") return `${name} extracts password hashes`;
  // (A backup next to it, `cp /etc/shadow /etc/shadow.bak`, stays where only root reads it.)
  const operands = a.filter((t) => !isOption(t));
  if (["cp", "dd", "rsync", "scp", "tar", "zip", "install", "base64", "xxd"].includes(name) && has(/^(?:if=)?\/etc\/(?:shadow|gshadow|master\.passwd)$/) && !operands.every((t) => /^(?:if=|of=)?\/(?:etc|var\/backups)\//.test(t))) return `${name} copies the password hashes`;
  return null;
}

/** Services that protect a machine: Defender, EDR agents, audit, firewalls, mandatory access control. */
const SECURITY_SERVICES = /^(?:windefend|sense|wdnissvc|wdfilter|wdboot|mpssvc|securityhealthservice|sysmon64|sysmon|eventlog|csagent|csfalconservice|falcon-sensor|sentinelagent|sentinelone|cbdefense|carbonblack|cylancesvc|xagt|mdatp|wdavdaemon|auditd|audit|firewalld|ufw|iptables|nftables|apparmor|osqueryd|wazuh-agent|ossec|elastic-agent|elastic-endpoint|sophos|savservice|symantec|ccsvchst|mcafee|ekrn|bdservicehost|crowdstrike|qualys-cloud-agent|aide|fail2ban)(?:\.service)?$/i;
/** Folders an exclusion must not cover: a drive, the profiles, Windows, the staging folders. */
const BROAD_EXCLUSION = /^["']?(?:[A-Za-z]:\\?|[A-Za-z]:\\(?:Users|Windows|ProgramData|Program Files(?: \(x86\))?|Temp)\\?|[A-Za-z]:\\Users\\[^\\]{1,64}\\?(?:AppData(?:\\(?:Local|Roaming)(?:\\Temp)?)?|Downloads|Desktop)?\\?|%(?:TEMP|TMP|APPDATA|LOCALAPPDATA|USERPROFILE|PUBLIC|PROGRAMDATA|SYSTEMROOT|WINDIR)%\\?|\$env:(?:TEMP|TMP|APPDATA|LOCALAPPDATA|USERPROFILE|PUBLIC|ProgramData|SystemRoot|windir)\\?|\*|\\)["']?$/i;
const RISKY_EXTENSIONS = /^\.?(?:exe|dll|ps1|bat|cmd|vbs|js|hta|scr|msi|\*)$/i;

function defenseEvasion(r: Resolved, a: string[]): string | null {
  const name = r.name;
  const has = (re: RegExp) => a.some((t) => re.test(t));
  const after = (re: RegExp) => {
    const out: string[] = [];
    for (let i = 0; i < a.length; i++) if (re.test(a[i] as string)) for (let j = i + 1; j < a.length && !/^-[A-Za-z]/.test(a[j] as string); j++) out.push(...(a[j] as string).split(","));
    return out;
  };
  if (name === "set-mppreference" || name === "add-mppreference") {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      const m = /^-(Disable(?:RealtimeMonitoring|BehaviorMonitoring|IOAVProtection|ScriptScanning|IntrusionPreventionSystem|BlockAtFirstSeen|ArchiveScanning|OnAccessProtection|TamperProtection))(?::(.*))?$/i.exec(t);
      const v = m ? (m[2] ?? a[i + 1] ?? "$true") : "";
      if (m && /^(?:\$?true|1)$/i.test(v.trim())) return `Defender's ${m[1]} turned on (protection off)`;
    }
    if (after(/^-ExclusionPath$/i).some((p) => BROAD_EXCLUSION.test(p.trim()))) return "a Defender exclusion of a whole drive, profile or staging folder";
    if (after(/^-ExclusionExtension$/i).some((p) => RISKY_EXTENSIONS.test(p.trim()))) return "a Defender exclusion of every program of a kind";
    if (after(/^-ExclusionProcess$/i).some((p) => /^(?:powershell|pwsh|cmd|rundll32|regsvr32|mshta|wscript|cscript)(?:\.exe)?$/i.test(p.trim()))) return "a Defender exclusion of a script host";
  }
  if ((name === "mpcmdrun" && has(/^-RemoveDefinitions$/i)) || (name === "reg" && /^add$/i.test(a[0] ?? "") && /Windows Defender|Defender\\|WindowsDefender/i.test(a[1] ?? "") && has(/^Disable(?:AntiSpyware|AntiVirus|RealtimeMonitoring|BehaviorMonitoring)$/i) && has(/^(?:1|0x0*1)$/))) return "Defender switched off";
  // Services stopped or disabled: sc, net, Stop-Service, systemctl, service, launchctl.
  const svc = (t: string | undefined) => t !== undefined && SECURITY_SERVICES.test(t.replace(/^["']|["']$/g, ""));
  if (name === "sc" && /^(?:stop|delete|config)$/i.test(a[0] ?? "") && svc(a[1]) && (!/^config$/i.test(a[0] ?? "") || has(/^disabled$/i))) return `sc ${a[0]?.toLowerCase()} of a security service`;
  if (name === "net" && /^stop$/i.test(a[0] ?? "") && svc(a[1])) return "net stop of a security service";
  if ((name === "stop-service" || name === "set-service") && a.some((t) => svc(t)) && (name === "stop-service" || has(/^disabled$/i))) return `${name} of a security service`;
  if (name === "systemctl" && /^(?:stop|disable|mask|kill)$/i.test(a.find((t) => !isOption(t)) ?? "") && a.filter((t) => !isOption(t)).slice(1).some((t) => svc(t))) return "systemctl stops a security service";
  if (name === "service" && svc(a[0]) && /^stop$/i.test(a[1] ?? "")) return "service stops a security service";
  if ((name === "launchctl" && /^(?:unload|bootout|disable)$/i.test(a[0] ?? "") && has(/falcon|sentinel|crowdstrike|jamf|xprotect|mdatp|wdav/i))) return "launchctl unloads a security agent";
  if (name === "auditctl" && (has(/^-D$/) || a.some((t, i) => t === "-e" && a[i + 1] === "0"))) return "auditctl turns auditing off";
  if (name === "setenforce" && /^(?:0|permissive)$/i.test(a[0] ?? "")) return "SELinux set to permissive";
  if (name === "aa-teardown" || (name === "aa-disable" && a.length > 0)) return "AppArmor profiles removed";
  if (name === "ufw" && /^disable$/i.test(a[0] ?? "")) return "the firewall disabled";
  if (name === "netsh" && has(/^advfirewall$/i) && has(/^state$/i) && has(/^off$/i)) return "the Windows firewall turned off";
  if (name === "set-netfirewallprofile" && a.some((t, i) => (/^-Enabled$/i.test(t) && /^(?:\$?false|0)$/i.test(a[i + 1] ?? "")) || /^-Enabled:\$?false$/i.test(t))) return "the Windows firewall turned off";
  if (name === "pfctl" && has(/^-d$/)) return "the packet filter disabled";
  if (name === "socketfilterfw" && a.some((t, i) => t === "--setglobalstate" && /^off$/i.test(a[i + 1] ?? ""))) return "the macOS application firewall turned off";
  if (name === "spctl" && has(/^--(?:master-disable|global-disable)$/)) return "Gatekeeper turned off";
  if (name === "csrutil" && /^disable$/i.test(a[0] ?? "")) return "System Integrity Protection turned off";
  return null;
}

/** Miners, by their programs' names. */
const MINERS = new Set(["xmrig", "xmr-stak", "xmr-stak-rx", "xmr-stak-cpu", "cpuminer", "cpuminer-opt", "minerd", "cgminer", "bfgminer", "ethminer", "nbminer", "lolminer", "phoenixminer", "gminer", "teamredminer", "srbminer", "srbminer-multi", "nanominer", "ccminer", "xmrig-notls", "xmrig-cuda", "wildrig", "bzminer", "nheqminer", "kawpowminer", "minergate-cli", "moneroocean", "c3pool"]);
const STRATUM = /(?:^|[=@])stratum\d?\+(?:tcp|ssl|tls|ws|wss):\/\//i;

/** Programs that print or search their arguments: a pool's address in them runs nothing. */
const PRINTS = new Set(["echo", "printf", "grep", "rg", "egrep", "fgrep", "cat", "less", "head", "tail", "git", "jq", "sed", "awk"]);

function cryptominer(r: Resolved, a: string[]): string | null {
  if (!PRINTS.has(r.name) && a.some((t) => STRATUM.test(t))) return `${r.name || "a program"} is given a mining pool`;
  const onlyAsks = a.length > 0 && a.every((t) => /^(?:-h|--help|-V|--version|--print-time=\d+)$/.test(t));
  if (MINERS.has(r.name) && !onlyAsks) return `${r.name} mines cryptocurrency`;
  // A miner's image run as a container.
  if (CONTAINERS.has(r.name) && /^(?:run|create)$/.test(a.find((t) => !isOption(t)) ?? "") && a.some((t) => !isOption(t) && MINERS.has(commandName((t.split(":")[0] ?? "").split("/").pop() ?? "")))) return "a miner's image run";
  return null;
}

/** Git settings whose value git runs as a program. */
const GIT_EXEC_KEYS = /^(?:core\.(?:fsmonitor|sshcommand|pager|editor|askpass|gitproxy|hookspath)|credential(?:\.[^=]{1,200})?\.helper|diff\.[^=]{1,100}\.(?:textconv|command)|diff\.external|merge\.[^=]{1,100}\.driver|filter\.[^=]{1,100}\.(?:clean|smudge|process)|sequence\.editor|uploadpack\.packobjectshook|protocol\.ext\.allow|alias\.[^=]{1,100}|gpg\.(?:program|[^=]{1,20}\.program)|ssh\.variant)$/i;

/**
 * git configured to run a program: `git -c KEY=VALUE …`, `git clone --config KEY=VALUE`, `git config [--global] KEY
 * VALUE`. The value is a command line (a `!` alias or helper is one too), judged as such; besides, a program in a
 * staging folder, and — on a clone, fetch or submodule update — a hooks path inside the fetched tree or an fsmonitor
 * that is not a boolean, run what a stranger wrote.
 */
function gitExecConfig(r: Resolved, a: string[], judgeValue: (v: string) => CommandFinding[]): string | null {
  if (r.name !== "git") return null;
  const pairs: [string, string][] = [];
  for (let i = 0; i < a.length && pairs.length < 16; i++) {
    const t = a[i] as string;
    if ((t === "-c" || t === "--config") && a[i + 1]) {
      const kv = a[i + 1] as string;
      const eq = kv.indexOf("=");
      if (eq > 0) pairs.push([kv.slice(0, eq), kv.slice(eq + 1)]);
      i++;
    } else if (t.startsWith("--config=")) {
      const kv = t.slice(9);
      const eq = kv.indexOf("=");
      if (eq > 0) pairs.push([kv.slice(0, eq), kv.slice(eq + 1)]);
    }
  }
  const words = a.filter((t) => !isOption(t));
  const cfg = words.indexOf("config");
  if (cfg >= 0 && words[cfg + 1] !== undefined && words[cfg + 2] !== undefined && GIT_EXEC_KEYS.test(words[cfg + 1] as string)) pairs.push([words[cfg + 1] as string, words.slice(cfg + 2).join(" ")]);
  const fetching = words.some((t) => /^(?:clone|fetch|pull|submodule)$/.test(t));
  for (const [k, raw] of pairs) {
    if (!GIT_EXEC_KEYS.test(k)) continue;
    const key = k.toLowerCase();
    const v = raw.trim().replace(/^!/, "");
    if (v === "" || /^(?:true|false|0|1|yes|no)$/i.test(v)) continue;
    if (judgeValue(v).length > 0) return `git's ${key} runs a dangerous command`;
    if (STAGING.test(v) || /^["']?(?:https?|ftp):\/\//i.test(v)) return `git's ${key} runs a program from a staging folder or a URL`;
    if (key === "protocol.ext.allow" && /^always$/i.test(v) && fetching) return "git allowed to run ext:: transports on a fetch";
    if (fetching && key === "core.hookspath" && !/^(?:\/|~|\$HOME)/.test(v)) return "a clone whose hooks run from the fetched tree";
    if (fetching && (key === "core.fsmonitor" || key === "core.sshcommand" ? /(?:^|[\s;|&])(?:curl|wget|nc|bash|sh|python\d?|perl|node|base64)\b/.test(v) || key === "core.fsmonitor" : false)) return `a clone whose ${key} runs a program`;
  }
  return null;
}

/** Package managers' indexes: over plain HTTP to a host not on this machine, or with TLS checks turned off. */
function untrustedInstall(r: Resolved, c: Command, a: string[]): string | null {
  let name = r.name;
  let args = a;
  // `python -m pip install …`, `uv pip install …`
  const m = a.indexOf("-m");
  if (name === "python" && m >= 0 && a[m + 1] === "pip") {
    name = "pip";
    args = a.slice(m + 2);
  }
  if (name === "uv" && a[0] === "pip") {
    name = "pip";
    args = a.slice(1);
  }
  const verb = args.find((t) => !isOption(t)) ?? "";
  const plain = (u: string) => /^http:\/\//i.test(u) && !/^http:\/\/(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|host\.docker\.internal)(?:[:/]|$)/i.test(u);
  const local = (h: string) => /^(?:localhost|127\.\d+\.\d+\.\d+|::1|host\.docker\.internal)(?::\d+)?$/i.test(h);
  const valueOf = (re: RegExp): string[] => {
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const t = args[i] as string;
      const eq = t.indexOf("=");
      if (eq > 0 && re.test(t.slice(0, eq))) out.push(t.slice(eq + 1));
      else if (re.test(t) && args[i + 1] !== undefined) out.push(args[i + 1] as string);
    }
    return out;
  };
  const tlsOffEnv = [...c.words.map((w) => w.text), ...(c.env ?? [])].some((w) => /^(?:NODE_TLS_REJECT_UNAUTHORIZED=0|PIP_TRUSTED_HOST=|PYTHONHTTPSVERIFY=0|GIT_SSL_NO_VERIFY=(?:1|true)|NPM_CONFIG_STRICT_SSL=false)/i.test(w));
  if ((name === "pip" || name === "pipx" || name === "pip3") && /^install$/.test(verb)) {
    const indexes = valueOf(/^(?:-i|--index-url|--extra-index-url|-f|--find-links)$/);
    if (indexes.some(plain)) return "pip installs from an index over plain HTTP";
    if (valueOf(/^--trusted-host$/).some((h) => !local(h) && !/^(?:pypi\.org|files\.pythonhosted\.org|pypi\.python\.org)$/i.test(h))) return "pip installs with TLS checks off for a host";
    if (args.some((t) => /^(?:git\+)?http:\/\//i.test(t) && plain(t.replace(/^git\+/, "")))) return "pip installs a package over plain HTTP";
    if (tlsOffEnv) return "pip installs with TLS checks off";
  }
  if (["npm", "pnpm", "yarn", "bun"].includes(name) && /^(?:install|i|add|ci|exec|x|dlx)$/.test(verb)) {
    if (valueOf(/^--registry$/).some(plain) || args.some((t) => /^--strict-ssl=false$/i.test(t)) || tlsOffEnv) return `${name} installs from a registry over plain HTTP or with TLS checks off`;
  }
  if (name === "gem" && verb === "install" && (valueOf(/^(?:--source|-s|--clear-sources)$/).some(plain))) return "gem installs from a source over plain HTTP";
  if ((name === "apt-get" || name === "apt") && /^install$/.test(verb) && args.some((t) => /^--allow-unauthenticated$|AllowInsecureRepositories=(?:1|true|yes)|Verify-Peer=(?:0|false)/i.test(t))) return `${name} installs unauthenticated packages`;
  return null;
}

/** SQL that destroys a database: a whole database or schema dropped with force or cascade, or a production one. */
const SQL_DROP = /\bdrop\s{1,8}(?:database|schema)\s{1,8}(?:if\s{1,8}exists\s{1,8})?[`"\[]?([\w.$-]{1,128})[`"\]]?([^;]{0,200})/gi;
const SQL_TRUNCATE = /\btruncate\s{1,8}(?:table\s{1,8})?(?:only\s{1,8})?[`"\[]?([\w.$-]{1,128})[`"\]]?([^;]{0,200})/gi;
/** SQL read per statement text: its first 64 KB. */
const MAX_SQL = 65536;
const SQL_MONGO = /\.dropDatabase\s*\(\s*\)/;
const SQL_DROP_TABLE = /\bdrop\s{1,8}table\s{1,8}(?:if\s{1,8}exists\s{1,8})?[`"\[]?([\w.$-]{1,128})[`"\]]?/gi;
/** Tables made to be dropped: temporary, backup, import and migration copies. */
const SCRATCH_TABLE = /(?:^|[._])(?:tmp|temp|old|bak|backup|copy|staging|stage|import|migration|scratch)(?:[._\d]|$)/i;
const DEV_DATABASE = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|scratch|sandbox|ci|e2e|fixture|fixtures|demo|example|shadow)(?:[^a-z]|$)/i;

/** Whether the DROP TABLE list that ends at `from` goes on to `CASCADE` (a list of up to 8 more tables first). */
function droppedWithDependents(s: string, from: number): boolean {
  const tail = s.slice(from, from + 600);
  return /^(?:\s{0,4},\s{0,4}[`"[]?[\w.$-]{1,128}[`"\]]?){0,8}\s{1,8}cascade\b/i.test(tail);
}

/** Judges SQL (a tool's statement, `psql -c`, `mysql -e`): what it destroys, or null. `where` names the database when known. */
export function destructiveSql(sql: string, where = ""): string | null {
  const s = sql.length > MAX_SQL ? sql.slice(0, MAX_SQL) : sql;
  // (Only a statement's own start: a question that says "drop database production" in prose is not one.)
  const atStart = (i: number) => /(?:^|;|\b(?:begin|then|else|do|loop)\b)\s*$/i.test(s.slice(Math.max(0, i - 64), i).replace(/--[^\n]{0,200}$/gm, ""));
  SQL_DROP.lastIndex = 0;
  for (let m, n = 0; (m = SQL_DROP.exec(s)) !== null && n < 16; n++) {
    if (!atStart(m.index)) continue;
    const target = m[1] as string;
    const tail = m[2] as string;
    if (/\bforce\b|\bcascade\b/i.test(tail)) return `drops a whole database or schema with force`;
    if (PRODUCTION.test(target) || (PRODUCTION.test(where) && !DEV_DATABASE.test(target))) return "drops a production database or schema";
  }
  SQL_TRUNCATE.lastIndex = 0;
  for (let m, n = 0; (m = SQL_TRUNCATE.exec(s)) !== null && n < 16; n++) {
    if (!atStart(m.index)) continue;
    if (PRODUCTION.test(m[1] as string) || (PRODUCTION.test(where) && !DEV_DATABASE.test(where))) return "truncates a production table";
  }
  // (Thirteenth round) A table dropped where production is named (the table's name, or where the statement is run),
  // as a truncate is: `DROP TABLE tenants CASCADE` "on pm-prod". Temporary, backup and import tables pass.
  SQL_DROP_TABLE.lastIndex = 0;
  for (let m, n = 0; (m = SQL_DROP_TABLE.exec(s)) !== null && n < 16; n++) {
    if (!atStart(m.index)) continue;
    const table = m[1] as string;
    if (DEV_DATABASE.test(table) || SCRATCH_TABLE.test(table)) continue;
    if (PRODUCTION.test(table) || (PRODUCTION.test(where) && !DEV_DATABASE.test(where))) return "drops a production table";
    // (Nineteenth round, cp19) A drop that takes every dependent object with it (`DROP TABLE x CASCADE`), not a
    // migration's guarded `IF EXISTS`, of a table not named as scratch, development or test: a drop of live data.
    const dropsDependents = droppedWithDependents(s, m.index + m[0].length);
    if (dropsDependents && !/\bif\s{1,8}exists\b/i.test(m[0]) && !DEV_DATABASE.test(table) && !DEV_DATABASE.test(where)) return "drops a table and everything that depends on it (CASCADE)";
  }
  if (SQL_MONGO.test(s) && (PRODUCTION.test(s) || PRODUCTION.test(where))) return "drops a production database";
  // (Twelfth round) SQL without a scope: every row, a whole database, every table, a web shell (commands-scope.ts).
  // (Fourteenth round) Every row rewritten, every dependent object dropped, where production is named (commands-records.ts).
  // (Seventeenth round) The audit trail's recent rows deleted (commands-bulk.ts).
  // (Twentieth round) A tautological filter, a column's values erased on every row, a live table dropped (commands-erased.ts).
  return unscopedSql(s, where) ?? everyRowSql(s, where) ?? decidedEveryRow(s, where) ?? auditErased(s) ?? erasedSql(s, where);
}

/** Database CLIs that destroy a database: `dropdb --force`, `psql -c 'DROP DATABASE …'`, `redis-cli -h remote FLUSHALL`. */
function databaseDestroy(r: Resolved, a: string[]): string | null {
  const name = r.name;
  const valueOf = (re: RegExp): string => {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      const eq = t.indexOf("=");
      if (t.startsWith("--") && eq > 0 && re.test(t.slice(0, eq))) return t.slice(eq + 1);
      if (re.test(t)) return a[i + 1] ?? "";
    }
    return "";
  };
  const where = [valueOf(/^(?:-h|--host|-d|--dbname|-D|--database|-S|--server|-u|--uri|--url)$/), ...a.filter((t) => /^(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|rediss):\/\//i.test(t))].join(" ");
  if (name === "dropdb") {
    const db = a.filter((t) => !isOption(t)).pop() ?? "";
    if (a.some((t) => t === "--force" || t === "-f")) return "dropdb --force";
    if (PRODUCTION.test(db) || PRODUCTION.test(where)) return "dropdb of a production database";
  }
  if (name === "mysqladmin" && a.some((t) => /^drop$/i.test(t)) && a.some((t) => t === "-f" || t === "--force")) return "mysqladmin drop --force";
  const sqlArg = name === "psql" ? valueOf(/^(?:-c|--command)$/) : name === "mysql" || name === "mariadb" ? valueOf(/^(?:-e|--execute)$/) : name === "sqlcmd" ? valueOf(/^-[Qq]$/) : name === "clickhouse-client" ? valueOf(/^(?:-q|--query)$/) : name === "mongosh" || name === "mongo" ? valueOf(/^--eval$/) : name === "cockroach" ? valueOf(/^(?:-e|--execute)$/) : "";
  if (sqlArg) {
    const hit = destructiveSql(sqlArg, where);
    if (hit) return `${name} ${hit}`;
  }
  if (name === "redis-cli" && a.some((t) => /^flush(?:all|db)$/i.test(t))) {
    const host = valueOf(/^-h$/) || valueOf(/^-u$/);
    if ((host && !/^(?:localhost|127\.\d+\.\d+\.\d+|::1|redis|cache)$|^redis:\/\/(?:localhost|127\.)/i.test(host)) || PRODUCTION.test(where)) return "redis-cli flushes a remote store";
  }
  return null;
}

/** A quarantine attribute stripped from an app or file that the same line then opens or runs (macOS). */
function quarantineStripped(r: Resolved, a: string[]): string | null {
  if (r.name !== "xattr") return null;
  const deletes = a.some((t) => /^-[a-z]*[dc][a-z]*$/.test(t));
  if (!deletes) return null;
  if (a.some((t) => /^-[a-z]*c[a-z]*$/.test(t)) || a.includes("com.apple.quarantine")) return a.filter((t) => !isOption(t) && t !== "com.apple.quarantine").pop() ?? null;
  return null;
}

/** Judges one resolved command on its own. */
function judgeCommand(r: Resolved, c: Command, add: (type: string, detail: string) => void): void {
  const a = r.args.map((x) => x.text);
  const name = r.name;
  // -- destructive
  if (name === "rm") {
    const recursive = a.some((t) => t === "--recursive" || (/^-[a-zA-Z]+$/.test(t) && /[rR]/.test(t)));
    if (a.includes("--no-preserve-root")) add("dangerous_command.recursive_delete", "rm --no-preserve-root");
    else if (recursive && a.some((t) => !isOption(t) && WIPE_TARGET.test(t))) add("dangerous_command.recursive_delete", "deletes a system folder or the home folder recursively");
  }
  // A file system or swap area made in a regular file (`mkswap /swapfile`, `mkfs.ext4 disk.img`) formats no disk: only a
  // device, or a target the line does not spell out (a variable, none at all), is a disk.
  // (Fifteenth round) `wipefs -n`/`--no-act` only lists a device's signatures: a dry run erases nothing.
  const dryWipe = name === "wipefs" && a.some((t) => t === "--no-act" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(t));
  if ((/^mkfs(?:\..+)?$/.test(name) || name === "mke2fs" || (name === "wipefs" && !dryWipe) || name === "mkswap") && formatsDevice(a) && !stickFormat(name, a)) add("dangerous_command.disk_format", `${name} formats a disk`);
  if (name === "format" && a.some((t) => /^[A-Za-z]:$/.test(t))) add("dangerous_command.disk_format", "format of a drive");
  if (name === "dd" && a.some((t) => t.startsWith("of=") && DISK.test(t.slice(3))) && !flashesImage(a)) add("dangerous_command.disk_overwrite", "dd over a disk device");
  if (name === "shred" && a.some((t) => t.startsWith("/dev/"))) add("dangerous_command.disk_overwrite", "shred of a device");
  if (c.redirects.some((d) => (d.op === ">" || d.op === ">|" || d.op === "&>") && d.target && DISK.test(d.target.text))) add("dangerous_command.disk_overwrite", "writes over a disk device");
  if (name === "chmod" && a.some((t) => /^(?:0?777|a\+rwx|ugo\+rwx|[ugoa]*\+[rwx]*s[rwx]*)$/.test(t)) && a.filter((t) => !isOption(t)).length >= 2) add("dangerous_command.permissions", "chmod that opens files to everyone or sets setuid");
  if (name === "chown" && a.some((t) => t === "-R" || t === "--recursive") && a.some((t) => t === "/")) add("dangerous_command.permissions", "chown -R of /");
  // -- privilege escalation
  if (r.sudo && ["su", "bash", "sh", "zsh", "passwd", "visudo"].includes(name) && !(name === "visudo" && a.some((t) => t === "--check" || /^-[a-z]*c[a-z]*$/.test(t)))) add("dangerous_command.privilege_escalation", `sudo ${name}`);
  if (r.rootShell) add("dangerous_command.privilege_escalation", "sudo to a root shell");
  if (c.redirects.some((d) => (d.op === ">" || d.op === ">>") && d.target && ROOT_FILES.test(d.target.text))) add("dangerous_command.privilege_escalation", "writes to the system's accounts or sudoers");
  if (name === "tee" && a.some((t) => ROOT_FILES.test(t))) add("dangerous_command.privilege_escalation", "writes to the system's accounts or sudoers");
  if ((name === "useradd" || name === "usermod") && a.some((t, i) => (t === "-u" || t === "--uid") && a[i + 1] === "0")) add("dangerous_command.privilege_escalation", "an account with uid 0");
  // -- history
  if ((name === "history" && a.includes("-c")) || (name === "unset" && a.includes("HISTFILE")) || (name === "crontab" && a.includes("-r"))) add("dangerous_command.history_tamper", `${name} ${a[0] ?? ""}`.trim());
  if (c.redirects.some((d) => d.op.startsWith(">") && d.target && /(?:^|\/)\.(?:bash|zsh)_history$/.test(d.target.text))) add("dangerous_command.history_tamper", "overwrites the shell history");
  if (name === "export" && a.some((t) => /^HISTFILE=\/dev\/null$|^HISTSIZE=0$/.test(t))) add("dangerous_command.history_tamper", "turns off the shell history");
  // Security logs wiped: deleted, shredded, truncated or overwritten; Windows event logs cleared.
  if (["rm", "shred", "truncate", "unlink"].includes(name) && a.some((t) => SECURITY_LOG.test(t))) add("dangerous_command.history_tamper", `${name} of a security log`);
  if (c.redirects.some((d) => (d.op === ">" || d.op === ">|" || d.op === "&>") && d.target && SECURITY_LOG.test(d.target.text))) add("dangerous_command.history_tamper", "overwrites a security log");
  if ((name === "wevtutil" && a.some((t) => /^(?:cl|clear-log)$/i.test(t))) || name === "clear-eventlog") add("dangerous_command.history_tamper", "clears the Windows event logs");
  // -- recovery points destroyed: shadow copies, backup catalogs, boot recovery (what ransomware does before it encrypts)
  const recovery = recoveryDeleted(name, a);
  if (recovery) add("dangerous_command.recovery_delete", recovery);
  // -- network sockets as shells
  const tcp = c.redirects.some((d) => d.target && /^\/dev\/(?:tcp|udp)\//.test(d.target.text));
  if (tcp && (isShellOrInterpreter(name) || name === "exec" || c.words.length === 0 || commandName(c.words[0]?.text ?? "") === "exec")) add("dangerous_command.reverse_shell", "a shell on a /dev/tcp socket");
  if (["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"].includes(name) && a.some((t) => t === "--exec" || t === "--sh-exec" || t === "--lua-exec" || t.startsWith("--exec=") || t.startsWith("--sh-exec=") || (/^-[a-zA-Z]+$/.test(t) && /[ec]/.test(t)))) add("dangerous_command.reverse_shell", `${name} that runs a program for the connection`);
  if (name === "socat" && a.some((t) => /^(?:exec|system):/i.test(t)) && a.some((t) => /^(?:tcp|udp|openssl|ssl|tcp4|tcp6|tcp-listen|tcp4-listen|udp-listen)[:-]/i.test(t))) add("dangerous_command.reverse_shell", "socat that joins a socket to a program");
  if ((name === "awk" || name === "gawk") && a.some((t) => /\/inet\/(?:tcp|udp)\//.test(t))) add("dangerous_command.reverse_shell", "awk on a network socket");
  // -- the machine's remote login opened to another host (sixth round): a tunnel whose far end reaches this machine's
  // ssh, RDP, VNC, WinRM, SMB or telnet port is a way in from outside, whatever the tunnel tool.
  const exposed = remoteLoginExposed(name, a);
  if (exposed) add("dangerous_command.remote_access", exposed);
  // -- PowerShell
  if (POWERSHELL.has(name) && a.some((t, i) => POWERSHELL_ENCODED.test(t) && !readOnlyEncodedPowerShell(a[i + 1] ?? ""))) add("dangerous_command.powershell_encoded", "runs an encoded PowerShell command");
  // -- containers and host namespaces
  const priv = privilegedContainer(r);
  if (priv) add("dangerous_command.privileged_container", `a container or pod with ${priv}`);
  if (name === "kubectl" && (a.includes("apply") || a.includes("create"))) {
    for (const d of c.redirects) {
      const how = d.body !== undefined ? podReachesHost(d.body) : null;
      if (how) {
        add("dangerous_command.privileged_container", `a pod with ${how}`);
        break;
      }
    }
  }
  // -- (seventh round) a shell whose streams are descriptors opened elsewhere: a socket or a coprocess made its terminal
  if (isShellOrInterpreter(name) && shellStreamsElsewhere(c)) add("dangerous_command.reverse_shell", `${name} reads from and writes to a descriptor opened elsewhere (a socket)`);
  // -- (seventh round) find deleting from the root or the home folder
  if (name === "find" && findWipes(a)) add("dangerous_command.recursive_delete", "find deletes everything under a system folder or the home folder");
  // -- (seventh round) a whole scope of resources deleted with the confirmation turned off
  const teardown = scopeTeardown(name, a);
  if (teardown) add("dangerous_command.infrastructure_teardown", teardown);
  // -- (seventh round) the dynamic loader's preload list: a library injected into every program started
  if (c.redirects.some((d) => d.op.startsWith(">") && d.target && LOADER_PRELOAD.test(d.target.text)) || (name === "tee" && a.some((t) => LOADER_PRELOAD.test(t)))) add("dangerous_command.persistence", "registers a library the loader injects into every program");
  // -- (seventh round) a kernel hook that runs a program as root (a cgroup's release_agent, uevent_helper, the modprobe
  // path) written to: from inside a container, the way out to the host
  if (c.redirects.some((d) => d.op.startsWith(">") && d.target && KERNEL_HOOK.test(d.target.text)) || (name === "tee" && a.some((t) => KERNEL_HOOK.test(t)))) add("dangerous_command.privileged_container", "writes a program into a kernel hook that runs it as root");
  // -- (seventh round) a program handed a remote file of a kind that carries code (an INF, a scriptlet, a project, a DLL)
  const remote = remoteCodeOperand(r);
  if (remote) add("dangerous_command.download_execute", `${name} is handed code a URL serves (${remote})`);
  // -- credentials over the network
  if (uploadsCredentials(r)) add("dangerous_command.credential_exfiltration", `${name} uploads a credential file`);
  if (sends(r, c) && c.redirects.some((d) => d.op.startsWith("<") && d.target !== null && isCredentialPath(d.target.text))) add("dangerous_command.credential_exfiltration", `${name} sends a credential file`);
  // -- (eighth round) technique families: credential stores dumped, protections turned off, miners, git told to run a
  // program, packages from an untrusted index, databases destroyed with force
  const dump = credentialDump(r, a, a.join(" "));
  if (dump) add("dangerous_command.credential_dump", dump);
  const evasion = defenseEvasion(r, a);
  if (evasion) add("dangerous_command.defense_evasion", evasion);
  const miner = cryptominer(r, a);
  if (miner) add("dangerous_command.cryptominer", miner);
  const git = gitExecConfig(r, a, judgeNested);
  if (git) add("dangerous_command.git_exec_config", git);
  const install = untrustedInstall(r, c, a);
  if (install) add("dangerous_command.untrusted_install", install);
  const db = databaseDestroy(r, a);
  if (db) add("dangerous_command.database_destroy", db);
  // -- (ninth round) login-script captures, root's keys, root capabilities, firewalls, root installs from unknown
  // hosts, databases deleted without a snapshot, force pushes to shared branches (commands-ninth.ts)
  const writesTo = (re: RegExp) => c.redirects.some((d) => d.op.startsWith(">") && d.target !== null && re.test(d.target.text));
  for (const f of judgeNinth(name, r.args, r.sudo, c, writesTo)) add(f.type, f.detail);
  // -- (tenth round) every resource of a cluster or a data service, a device's partitions, a service's data, snapshots
  for (const f of judgeWipe(name, a)) add(f.type, f.detail);
  // -- (eleventh round) a repository's store, every topic or key of a data service, every user's jobs, eFuses
  for (const f of judgeReach(name, a, r.sudo)) add(f.type, f.detail);
  // -- (twelfth round) lines ssh runs, the host entered, disks erased, roots and libraries deleted (commands-scope.ts)
  for (const f of judgeScope(name, a, PERSIST, judgeNested)) add(f.type, f.detail);
  // -- (thirteenth round) records and watches turned off, admin to everyone, remote manifests, shared sessions
  for (const f of judgeControl(name, a)) add(f.type, f.detail);
  // -- (fourteenth round) stores of record emptied, volumes and services' data, cloud backups, framework drops
  for (const f of judgeRecords(name, a)) add(f.type, f.detail);
  // -- (fifteenth round) unfiltered deletes, live data shredded, Windows data folders emptied, outside screens
  for (const f of judgeUnfiltered(name, a, c.env ?? [])) add(f.type, f.detail);
}

/** The eighth round's technique families (types a PowerShell payload read as words may give). */
const FAMILY_TYPES = new Set(["credential_dump", "defense_evasion", "cryptominer", "git_exec_config", "untrusted_install", "database_destroy"].map((t) => `dangerous_command.${t}`));

/** A command line inside a command's value (a git setting's program), judged at a bounded depth. */
let nestedDepth = 0;
function judgeNested(text: string): CommandFinding[] {
  if (nestedDepth >= 2 || text.length > SEGMENT) return [];
  nestedDepth++;
  try {
    const out: CommandFinding[] = [];
    judgeText(text, { depth: MAX_DEPTH - 1, parses: MAX_PARSES - 2 }, out);
    return out;
  } finally {
    nestedDepth--;
  }
}

interface Context {
  depth: number;
  parses: number;
}

const MAX_DEPTH = 3;
/** Findings kept per command line: one is enough to refuse it; a few say why. */
const MAX_FINDINGS = 32;
const MAX_PARSES = 8;

/** Whether a script (or anything run inside it) has a stage matching `test`. */
function anyStage(s: Script, test: (r: Resolved, c: Command) => boolean, budget = { n: 2000 }): boolean {
  for (const p of s.pipelines) {
    for (const c of p.commands) {
      if (--budget.n < 0) return false;
      const r = resolve(c);
      if (test(r, c)) return true;
      for (const w of c.words) for (const sub of w.subs) if (anyStage(sub, test, budget)) return true;
      for (const sub of c.assigned ?? []) if (anyStage(sub, test, budget)) return true;
    }
  }
  return false;
}

const fetches = (r: Resolved) => downloadsToStdout(r);
const decodesOrPrints = (r: Resolved) => decodes(r) || printsEscapes(r);

/** Judges a script: every pipeline, every command, and what runs inside words; findings are in the text's coordinates. */
function judgeScript(s: Script, ctx: Context, out: CommandFinding[], map: (start: number, end: number) => { start: number; end: number }): void {
  const downloaded = new Set<string>();
  const archives = new Set<string>();
  const seenSub = new Set<Script>();
  const stripped = new Set<string>();
  for (const p of s.pipelines) judgePipeline(p, ctx, out, map, downloaded, archives, seenSub, stripped);
  // (Ninth round) The firewall opened by the order of a line's commands (commands-ninth.ts).
  const firewall = judgeFirewall(s, (c) => {
    const r = resolve(c);
    return { name: r.name, args: r.args.map((w) => w.text) };
  });
  if (firewall && out.length < MAX_FINDINGS) {
    const at = map(s.pipelines[0]?.start ?? 0, s.pipelines[s.pipelines.length - 1]?.end ?? 0);
    out.push({ ...firewall, ...at });
  }
  // (Thirteenth round) A folder mirrored from an empty one the line made (commands-control.ts).
  const mirror = judgeMirror(s, (c) => {
    const r = resolve(c);
    return { name: r.name, args: r.args.map((w) => w.text) };
  });
  if (mirror && out.length < MAX_FINDINGS) {
    const at = map(s.pipelines[0]?.start ?? 0, s.pipelines[s.pipelines.length - 1]?.end ?? 0);
    out.push({ ...mirror, ...at });
  }
  // (Fourteenth round) A downloaded script handed to a program of any kind (commands-records.ts).
  const handed = judgeHandedScript(
    s,
    (c) => {
      const r = resolve(c);
      return { name: r.name, args: r.args.map((w) => w.text) };
    },
    (url) => vendorInstaller([url], "sh"),
  );
  if (handed && out.length < MAX_FINDINGS && !out.some((f) => f.type === handed.type)) {
    const at = map(s.pipelines[0]?.start ?? 0, s.pipelines[s.pipelines.length - 1]?.end ?? 0);
    out.push({ ...handed, ...at });
  }
  judgePersistence(s, ctx, (type, detail, start, end) => {
    if (out.length >= MAX_FINDINGS) return;
    const at = map(start, end);
    if (!out.some((f) => f.type === type && f.start === at.start && f.end === at.end)) out.push({ type, detail, ...at });
  });
}

function judgePipeline(
  p: Pipeline,
  ctx: Context,
  out: CommandFinding[],
  map: (start: number, end: number) => { start: number; end: number },
  downloaded: Set<string>,
  archives: Set<string>,
  seenSub: Set<Script>,
  stripped: Set<string> = new Set(),
): void {
  const add = (type: string, detail: string, start = p.start, end = p.end) => {
    if (out.length >= MAX_FINDINGS) return;
    const at = map(start, end);
    if (!out.some((f) => f.type === type && f.start === at.start && f.end === at.end)) out.push({ type, detail, ...at });
  };
  const resolved = p.commands.map((c) => resolve(c));
  let fetched = -1;
  let decoded = -1;
  let credentials = -1;
  let network = -1;
  let shell = -1;
  resolved.forEach((r, i) => {
    const c = p.commands[i] as Command;
    // (Thirteenth round) A vendor's documented installer piped into `sudo bash` as its page says (`curl -sL
    // https://aka.ms/InstallAzureCLIDeb | sudo bash`): root is what the installer needs, not an escalation.
    const vendorFed = r.sudo && SHELLS.has(r.name) && fetched >= 0 && runsStdin(r) && vendorInstaller(resolved[fetched]?.args.map((x) => x.text) ?? [], r.name);
    // (Seventeenth round) An image decompressed into dd on its way to a card (`xzcat os.img.xz | dd of=/dev/sdc`).
    const imageFed = r.name === "dd" && i > 0 && flashesPipedImage({ name: (resolved[i - 1] as Resolved).name, args: (resolved[i - 1] as Resolved).args.map((x) => x.text) }, r.args.map((x) => x.text));
    const at = (type: string, detail: string) => {
      if (vendorFed && type === "dangerous_command.privilege_escalation" && detail === `sudo ${r.name}`) return;
      if (imageFed && type === "dangerous_command.disk_overwrite") return;
      add(type, detail, c.start, c.end);
    };
    judgeCommand(r, c, at);
    // (Eleventh round) `ls -d /srv/archive/* | xargs sudo rm -rf`: the command xargs runs, with what the stage before
    // lists as its operands, judged as if written out (commands-reach.ts).
    if (r.name === "xargs" && i > 0) {
      const before = resolved[i - 1] as Resolved;
      const words = xargsCommand({ name: before.name, args: before.args.map((x) => x.text) }, r.args.map((x) => x.text));
      if (words !== null) {
        const inner: Command = { words: words.map((text) => ({ text, start: c.start, end: c.end, subs: [] })), redirects: [], start: c.start, end: c.end };
        judgeCommand(resolve(inner), inner, at);
      }
    }
    // Stages: what flows from one into the next.
    // (A stage that prints what a download returns counts too: `printf '%s' "$(curl …)" | bash`.)
    if (fetched < 0 && (fetches(r) || (i + 1 < p.commands.length && c.words.some((w) => w.subs.some((sub) => anyStage(sub, fetches)))) || c.redirects.some((d) => d.op.startsWith("<") && d.target && /^\/dev\/(?:tcp|udp)\//.test(d.target.text)) || (["nc", "ncat", "netcat"].includes(r.name) && i === 0))) fetched = i;
    if (decoded < 0 && decodesOrPrints(r)) decoded = i;
    if (credentials < 0 && readsCredentials(r, c)) credentials = i;
    if (i > 0 && sends(r, c) && credentials >= 0 && credentials < i) add("dangerous_command.credential_exfiltration", `credentials read by ${resolved[credentials]?.name} are sent by ${r.name}`);
    if (["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "telnet", "socat"].includes(r.name) || (r.name === "openssl" && r.args.some((x) => x.text === "s_client"))) network = network < 0 ? i : network;
    if (SHELLS.has(r.name) && r.name !== "busybox" && shellPayload(r.args) === null) shell = shell < 0 ? i : shell;
    if (runsStdin(r)) {
      // (Twelfth round) A toolchain's documented installer, from its vendor's own https address (commands-benign.ts).
      if (fetched >= 0 && fetched < i && !vendorInstaller(resolved[fetched]?.args.map((x) => x.text) ?? [], r.name)) add("dangerous_command.download_execute", `a download (${resolved[fetched]?.name}) is piped into ${r.name}`);
      if (decoded >= 0 && decoded < i) add("dangerous_command.decode_execute", `decoded text (${resolved[decoded]?.name}) is piped into ${r.name}`);
      // `bash <<< "$(curl …)"`, `sh < /dev/tcp/…`
      for (const d of c.redirects) {
        if (!d.op.startsWith("<") || !d.target) continue;
        if (d.target.subs.some((sub) => anyStage(sub, fetches))) add("dangerous_command.download_execute", `a download is fed to ${r.name}`);
        if (d.target.subs.some((sub) => anyStage(sub, decodesOrPrints))) add("dangerous_command.decode_execute", `decoded text is fed to ${r.name}`);
      }
    }
    // `bash <(curl …)`, `source <(wget -O- …)`, `python3 <(curl …)`
    const runsFiles = isShellOrInterpreter(r.name) || r.name === "source" || r.name === ".";
    if (runsFiles) {
      for (const w of r.args) {
        if (!w.file) continue;
        if (w.subs.some((sub) => anyStage(sub, fetches))) add("dangerous_command.download_execute", `${r.name} runs a download through a process substitution`);
        if (w.subs.some((sub) => anyStage(sub, decodesOrPrints))) add("dangerous_command.decode_execute", `${r.name} runs decoded text through a process substitution`);
      }
    }
    // `sh -c "$(curl …)"`, `eval "$(echo … | base64 -d)"`, `$(curl …)` as the command itself.
    const payload = SHELLS.has(r.name) ? shellPayload(r.args) : null;
    const evaluated = r.name === "eval" ? r.args : payload ? [payload] : r.word && r.word.subs.length > 0 ? [r.word] : [];
    for (const w of evaluated) {
      if (w.subs.some((sub) => anyStage(sub, fetches))) add("dangerous_command.download_execute", `${r.name || "the shell"} runs what a download prints`);
      if (w.subs.some((sub) => anyStage(sub, decodesOrPrints))) add("dangerous_command.decode_execute", `${r.name || "the shell"} runs decoded text`);
    }
    // A downloaded file run later in the same line: `curl -o x.sh URL && bash x.sh`, `wget URL; chmod +x f; ./f`.
    const file = downloadedFile(r);
    // (Thirteenth round) A vendor's documented installer saved, then run: `curl -fsSL -o get_helm.sh
    // https://raw.githubusercontent.com/helm/helm/main/scripts/get-helm-3 && chmod 700 get_helm.sh && ./get_helm.sh`.
    if (file && !vendorInstaller(r.args.map((x) => x.text).filter((t) => t !== file && !t.endsWith(`=${file}`)), "sh")) downloaded.add(baseName(file));
    // (Eighth round) macOS: quarantine stripped from an app the same line then opens or runs — Gatekeeper bypassed.
    const unquarantined = quarantineStripped(r, r.args.map((x) => x.text));
    if (unquarantined && stripped.size < 16 && !buildProduct(unquarantined, downloaded)) stripped.add(baseName(unquarantined.replace(/[/\\]+$/, "")));
    else if (!unquarantined && stripped.size > 0 && i === 0 && ((r.word && stripped.has(baseName(r.word.text)) && /[/\\]/.test(r.word.text)) || ((r.name === "open" || isShellOrInterpreter(r.name)) && r.args.some((w) => !isOption(w.text) && stripped.has(baseName(w.text.replace(/[/\\]+$/, ""))))))) add("dangerous_command.defense_evasion", "opens what it stripped of its quarantine (Gatekeeper bypassed)", c.start, c.end);
    if (downloaded.size > 0 && i === 0 && !DOWNLOADERS.has(r.name)) {
      // (Fourteenth round) A data file handed to a script as its argument (`python scripts/load.py data/cities.csv`) is
      // read, not run: only an interpreter's first operand is its program.
      const firstOperand = r.args.findIndex((w) => !isOption(w.text));
      const runsIt = (r.word && downloaded.has(baseName(r.word.text)) && /[/\\]/.test(r.word.text)) || ((isShellOrInterpreter(r.name) || r.name === "source" || r.name === "." || WINDOWS_RUNNERS.has(r.name)) && r.args.some((w, k) => !isOption(w.text) && downloaded.has(baseName(w.text)) && !(k > firstOperand && DATA_FILE.test(w.text))));
      if (runsIt) add("dangerous_command.download_execute", "runs a file downloaded earlier in the same command line");
      // (Seventh round) A downloaded file of a kind that carries code, handed to any program but one that inspects,
      // moves or unpacks it: `msbuild %TEMP%\t.csproj`, `java -jar /tmp/h.jar`, `regasm /U a.dll`.
      else if (!HANDLES_FILES.has(r.name) && r.args.some((w) => !isOption(w.text) && CODE_FILE.test(w.text) && downloaded.has(baseName(w.text)))) add("dangerous_command.download_execute", `hands a downloaded code file to ${r.name}`);
    }
    // `mshta http://…/x.hta`, `msiexec /i https://…/x.msi`, `regsvr32 /i:http://…/x.sct scrobj.dll`: run what a URL serves.
    if (REMOTE_RUNNERS.has(r.name) && r.args.some((w) => /(?:^|[:=])(?:https?|ftp):\/\//i.test(w.text))) add("dangerous_command.download_execute", `${r.name} runs what a URL serves`);
    // Credentials archived to a file, then that file sent: `tar czf /tmp/k.tgz ~/.ssh && curl -F f=@/tmp/k.tgz …`.
    const archive = archivedCredentials(r, c);
    if (archive && archive !== "-") archives.add(baseName(archive));
    const mentions = (t: string) => [t, t.slice(t.lastIndexOf("@") + 1), t.slice(t.lastIndexOf("=") + 1), t.slice(t.lastIndexOf("<") + 1)].some((x) => x !== "" && archives.has(baseName(x)));
    if (archives.size > 0 && !archive && sends(r, c) && (r.args.some((w) => mentions(w.text)) || c.redirects.some((d) => d.op.startsWith("<") && d.target && mentions(d.target.text)))) {
      add("dangerous_command.credential_exfiltration", `an archive of credentials is sent by ${r.name}`);
    }
    // Payloads: shells' `-c` (and eval's words) as command lines; interpreters' code and PowerShell as code.
    for (const x of embedded(r, c)) {
      if (x.kind === "shell") {
        if (ctx.depth >= MAX_DEPTH || ctx.parses >= MAX_PARSES) continue;
        ctx.parses++;
        const inner: CommandFinding[] = [];
        judgeText(x.word.text, { depth: ctx.depth + 1, parses: ctx.parses }, inner);
        for (const f of inner) add(f.type, f.detail, x.word.start, x.word.end);
      } else {
        const hit = judgeCode(x.word.text, x.kind === "powershell");
        if (hit) add(hit.type, hit.detail, x.word.start, x.word.end);
        // (Eighth round) PowerShell's cmdlet calls read as words too (`powershell -c "Set-MpPreference -Disable… $true"`):
        // only the technique families, which name their cmdlets, are taken from that reading.
        if (x.kind === "powershell" && ctx.depth < MAX_DEPTH && ctx.parses < MAX_PARSES) {
          ctx.parses++;
          const inner: CommandFinding[] = [];
          judgeText(x.word.text, { depth: ctx.depth + 1, parses: ctx.parses }, inner);
          for (const f of inner) if (FAMILY_TYPES.has(f.type)) add(f.type, f.detail, x.word.start, x.word.end);
        }
        // (Judged whether or not judgeCode found something in the code.)
        if (x.kind === "code" && ctx.depth < MAX_DEPTH && CODE.shell.test(x.word.text)) {
          // `os.system("curl … | sh")`, `child_process.exec("nc -e …")`: the command lines the code hands a shell.
          for (const line of quoted(x.word.text)) {
            if (ctx.parses >= MAX_PARSES) break;
            ctx.parses++;
            const inner: CommandFinding[] = [];
            judgeText(line, { depth: ctx.depth + 1, parses: ctx.parses }, inner);
            for (const f of inner) add(f.type, f.detail, x.word.start, x.word.end);
          }
        }
      }
    }
    // What runs inside words and assignments is judged as scripts of its own.
    for (const w of c.words) for (const sub of w.subs) if (!seenSub.has(sub)) {
      seenSub.add(sub);
      const inner: CommandFinding[] = [];
      judgeScript(sub, ctx, inner, map);
      for (const f of inner) add(f.type, f.detail, f.start, f.end);
    }
    for (const sub of c.assigned ?? []) if (!seenSub.has(sub)) {
      seenSub.add(sub);
      judgeScript(sub, ctx, out, map);
    }
  });
  if (shell >= 0 && network >= 0) add("dangerous_command.reverse_shell", `${resolved[shell]?.name} is piped to and from ${resolved[network]?.name}`);
}

/** The string literals of a piece of code (at most a few, each bounded), quotes taken off. */
function quoted(code: string): string[] {
  const out: string[] = [];
  const c = code.length > MAX_CODE ? code.slice(0, MAX_CODE) : code;
  for (let i = 0; i < c.length && out.length < 8; i++) {
    const q = c[i];
    if (q !== '"' && q !== "'" && q !== "`") continue;
    let j = i + 1;
    while (j < c.length && c[j] !== q) j += c[j] === "\\" ? 2 : 1;
    if (j - i > 4) out.push(c.slice(i + 1, j));
    i = j;
  }
  return out;
}

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);

/** Command lines and code carried inside a command's words: `bash -c '…'`, `eval …`, `python -c '…'`, `pwsh -Command …`. */
function embedded(r: Resolved, c: Command): { kind: "shell" | "code" | "powershell"; word: Word }[] {
  const out: { kind: "shell" | "code" | "powershell"; word: Word }[] = [];
  const words = c.words;
  for (let i = 0; i < words.length; i++) {
    const n = commandName((words[i] as Word).text);
    const rest = words.slice(i + 1);
    if (SHELLS.has(n) && n !== "busybox") {
      const w = shellPayload(rest);
      if (w) out.push({ kind: "shell", word: w });
    } else if (INTERPRETERS.has(n)) {
      const w = interpreterCode(n, rest);
      // (Eighth round) Modules loaded on the command line are part of the code: `perl -MLWP::Simple -e 'eval get(…)'`.
      const modules = rest.filter((x) => /^-[Mr][\w:.-]{2,64}$/.test(x.text)).map((x) => x.text.slice(2));
      if (w) out.push({ kind: "code", word: modules.length > 0 ? { ...w, text: `${modules.map((m) => `use ${m}; require '${m}';`).join(" ")} ${w.text}` } : w });
    } else if (POWERSHELL.has(n)) {
      const at = rest.findIndex((w) => /^[-/](?:c|command)$/i.test(w.text));
      const code = at >= 0 ? rest.slice(at + 1) : rest.filter((w) => !/^[-/]/.test(w.text));
      if (code.length > 0) {
        const first = code[0] as Word;
        const last = code[code.length - 1] as Word;
        out.push({ kind: "powershell", word: { text: code.map((w) => w.text).join(" "), start: first.start, end: last.end, subs: [] } });
      }
    } else if (n === "cmd" && i === 0) {
      // `cmd /c "…"`: the rest is a command line of its own.
      const at = rest.findIndex((w) => /^\/[ck]$/i.test(w.text));
      if (at >= 0 && at + 1 < rest.length) {
        const first = rest[at + 1] as Word;
        const last = rest[rest.length - 1] as Word;
        out.push({ kind: "shell", word: { text: rest.slice(at + 1).map((w) => w.text).join(" "), start: first.start, end: last.end, subs: [] } });
      }
    } else if ((n === "awk" || n === "gawk") && i === 0) {
      const prog = rest.find((w) => !isOption(w.text));
      if (prog) out.push({ kind: "code", word: prog });
    }
  }
  if (r.name === "eval" && r.args.length > 0) {
    const first = r.args[0] as Word;
    const last = r.args[r.args.length - 1] as Word;
    out.push({ kind: "shell", word: { text: r.args.map((w) => w.text).join(" "), start: first.start, end: last.end, subs: [] } });
  }
  return out;
}

/** Long lines are judged a segment at a time, cut at line ends or `;` (each segment at most this long). */
const SEGMENT = MAX_PARSED;

function judgeText(text: string, ctx: Context, out: CommandFinding[]): void {
  if (text.length > SEGMENT) {
    for (let start = 0; start < text.length && out.length < MAX_FINDINGS; ) {
      let end = Math.min(text.length, start + SEGMENT);
      if (end < text.length) {
        const cut = Math.max(text.lastIndexOf("\n", end), text.lastIndexOf(";", end));
        if (cut > start + SEGMENT / 2) end = cut + 1;
      }
      const segment = text.slice(start, end);
      if (worthParsing(segment)) judgeScript(tokenize(segment, start, 0), ctx, out, (s, e) => ({ start: s, end: e }));
      start = end;
    }
  } else if (worthParsing(text)) {
    const parsed = parseShell(text);
    judgeScript(parsed, ctx, out, (s, e) => ({ start: s, end: e }));
    // The grammar read the line with errors (or not at all): the tokenizer's reading is judged too.
    if (parsed.errors) judgeScript(tokenize(text, 0, 0), ctx, out, (s, e) => ({ start: s, end: e }));
  }
  // PowerShell and Windows lines the shell grammar does not read: their calls, and the old text checks.
  const ps = POWERSHELL_WORDS.test(text.slice(0, MAX_CODE)) ? judgeCode(text, true) : null;
  if (ps && !out.some((f) => f.type === ps.type)) out.push({ type: ps.type, detail: ps.detail, start: 0, end: text.length });
  // The text checks read the text's first part; each runs only where its literal is (the old checks' in the text as
  // written, the sixteenth round's catalogue checks' in any case: commands-catalog.ts).
  const head = text.length > MAX_CODE * 4 ? text.slice(0, MAX_CODE * 4) : text;
  runTextChecks(TEXT_CHECKS, head, (t) => text.includes(t.needs), out);
  const lower = head.toLowerCase();
  runTextChecks(CATALOG_TEXT_CHECKS, head, (t) => (typeof t.needs === "string" ? lower.includes(t.needs) : t.needs.some((n) => lower.includes(n))), out);
  // (Seventeenth round) listings deleted one by one, stored passwords, flash erased, code run from a URL (commands-bulk.ts).
  runTextChecks(BULK_TEXT_CHECKS, head, (t) => (typeof t.needs === "string" ? lower.includes(t.needs) : t.needs.some((n) => lower.includes(n))), out);
  const bulk = bulkEnumerationDelete(head);
  if (bulk && !out.some((f) => f.type === bulk.type)) out.push(bulk);
  const safety = safetyDefeated(head);
  if (safety && !out.some((f) => f.type === safety.type)) out.push(safety);
  // (Nineteenth round) the SSH server's root or empty-password login switched on (commands-opened.ts).
  const opened = remoteRootOpened(lower);
  if (opened && !out.some((f) => f.type === opened.type)) out.push(opened);
  // (Twenty-third round) a loop that sends without end or pause, a flood option (commands-flood.ts).
  const flood = endlessSend(lower);
  if (flood && !out.some((f) => f.type === flood.type)) out.push(flood);
}

/** Each check whose literal is present runs once over `head`; a finding of a type already found is not added. */
function runTextChecks<T extends { re: RegExp; type: string; detail: string }>(checks: readonly T[], head: string, present: (t: T) => boolean, out: CommandFinding[]): void {
  for (const t of checks) {
    if (!present(t)) continue;
    t.re.lastIndex = 0;
    const m = t.re.exec(head);
    if (m && !out.some((f) => f.type === t.type)) out.push({ type: t.type, detail: t.detail, start: m.index, end: m.index + m[0].length });
  }
}

/** Lines no shell grammar reads (cmd.exe, PowerShell) and the fork bomb, checked as text: linear patterns, command sites only. */
const POWERSHELL_WORDS = /\b(?:iex|invoke-expression|invoke-webrequest|iwr|irm|downloadstring|frombase64string|tcpclient|powershell|pwsh)\b|\s-enc\b/i;

const TEXT_CHECKS: { type: string; detail: string; needs: string; re: RegExp }[] = [
  { type: "dangerous_command.recursive_delete", needs: ":\\", detail: "deletes a Windows drive or system folder recursively", re: /\b(?:Remove-Item|del|rd|rmdir|erase)\s+(?:[-/][A-Za-z]+\s+){0,6}["']?[A-Za-z]:\\(?:\*|Windows|Users)?["']?(?=$|[\s;&|])(?:\s+[-/][A-Za-z]+){0,6}/gi },
  // (Fifteenth round) A drive's or a share's data folder emptied (commands-unfiltered.ts).
  { type: "dangerous_command.recursive_delete", needs: "\\", detail: "deletes a Windows data folder's whole content", re: WINDOWS_DATA_EMPTIED },
  { type: "dangerous_command.disk_format", needs: "e", detail: "wipes a network device or removes its routing", re: DEVICE_WIPE },
  { type: "dangerous_command.fork_bomb", needs: "()", detail: "a fork bomb", re: /([A-Za-z_][\w]{0,30}|:)\(\)\s{0,10}\{\s{0,10}\1\s{0,10}\|\s{0,10}\1\s{0,10}&\s{0,10};?\s{0,10}\}\s{0,10};?\s{0,10}\1/g },
  { type: "dangerous_command.disk_format", needs: ":", detail: "format of a drive", re: /\bformat(?:\.com)?\s+[A-Za-z]:(?=$|[\s/])/gi },
  { type: "dangerous_command.recovery_delete", needs: "hadow", detail: "deletes the shadow copies", re: /\bWin32_ShadowCopy\b[^\n]{0,200}?(?:\bRemove-(?:CimInstance|WmiObject)\b|\.Delete\s*\(\s*\))/gi },
];

/**
 * (Fourteenth round) Shell lines another language hands to a shell as an argument vector: `subprocess.run(["bash",
 * "-c", "…"])`, Go's `exec.Command("sh", "-c", "…")`, Java's `new String[]{"/bin/sh","-c","…"}`, Node's `spawn("sh",
 * ["-c", "…"])`, ObjectScript's `$ZF(-100,"/ASYNC","/bin/bash","-c","…")`. The line is judged as a shell line is; a
 * shell name and `-c` in that order, each quoted, then one quoted string. At most 4 per text, each ≤ 4,000 characters.
 */
const SHELL_ARGV = /(["'])(?:\/usr)?(?:\/bin\/)?(?:ba|z|da|k)?sh\1\s{0,4},\s{0,4}\[?\s{0,4}(["'])-c\2\s{0,4},\s{0,4}(?:"([^"]{1,4000})"|'([^']{1,4000})')/g;
function shellArgvLines(text: string): { text: string; start: number; end: number }[] {
  if (!text.includes("-c") || text.length > MAX_CODE * 4) return [];
  const out: { text: string; start: number; end: number }[] = [];
  SHELL_ARGV.lastIndex = 0;
  for (let m; (m = SHELL_ARGV.exec(text)) !== null && out.length < 4; ) {
    const line = (m[3] ?? m[4]) as string;
    const start = m.index + m[0].length - line.length - 1;
    out.push({ text: line, start, end: start + line.length });
  }
  return out;
}

/** Recent lines and their findings: the dangerous_command and sensitive_path detectors read the same lines. */
const recent = new Map<string, CommandFinding[]>();

/** Judges a command line (a `command` site's value). Never throws. */
export function judgeCommandLine(text: string): CommandFinding[] {
  const hit = recent.get(text);
  if (hit) return hit;
  const out: CommandFinding[] = [];
  try {
    // (Twelfth round) A notebook cell's shell escapes (`!bash -c '…'`, a `%%bash` cell) are shell lines (commands-scope.ts).
    judgeText(notebookShell(text), { depth: 0, parses: 0 }, out);
    // (Fourteenth round) A notebook cell's or a code tool's Python (`import …` at a line's start): a pickle it
    // downloads and loads, a socket it gives a shell — not the shell grammar's reading.
    if (out.length === 0 && PYTHON_CELL.test(text.slice(0, MAX_CODE))) {
      const c = text.length > MAX_CODE ? text.slice(0, MAX_CODE) : text;
      if (CODE.socket.test(c) && CODE.shell.test(c)) out.push({ type: "dangerous_command.reverse_shell", detail: "opens a network socket and gives it a shell", start: 0, end: text.length });
      else if (CODE.download.test(c) && /\b(?:https?|ftp):\/\//i.test(c) && UNPICKLES.test(c)) out.push({ type: "dangerous_command.download_execute", detail: "loads a pickle downloaded from a URL (unpickling runs its code)", start: 0, end: text.length });
    }
    // (Fourteenth round) A shell line written as another language's argument vector (`"/bin/bash","-c","…"`).
    if (out.length === 0) for (const inner of shellArgvLines(text)) for (const f of judgeNested(inner.text)) if (out.length < MAX_FINDINGS) out.push({ type: f.type, detail: `${f.detail} (a shell line inside another language's call)`, start: inner.start, end: inner.end });
  } catch {
    // Nothing here should throw; if it does, the line is judged by the tokenizer alone.
    try {
      judgeScript(tokenize(text.slice(0, SEGMENT), 0, 0), { depth: MAX_DEPTH, parses: MAX_PARSES }, out, (s, e) => ({ start: s, end: e }));
    } catch {
      // the line stays unjudged by this detector only; every other detector still runs
    }
  }
  out.sort((x, y) => x.start - y.start || y.end - x.end);
  if (text.length <= 4096) {
    if (recent.size >= 64) recent.delete(recent.keys().next().value as string);
    recent.set(text, out);
  }
  return out;
}

/**
 * The file operands of a command line, as the sensitive-path detector judges them: operands of commands that read,
 * copy or send a file's contents, and redirection targets. Commands that only touch a file's metadata (`chmod 600
 * ~/.ssh/id_ed25519`, `ls`, `stat`) or use a key without revealing it (`ssh -i`, `ssh-add`) are left out.
 */
export function commandOperands(text: string): { text: string; start: number; end: number; writes: boolean }[] {
  const out: { text: string; start: number; end: number; writes: boolean }[] = [];
  try {
    const script = text.length <= SEGMENT ? parseShell(text) : tokenize(text.slice(0, SEGMENT * 4), 0, 0);
    collectOperands(script, out, 0);
  } catch {
    // no operands found is the answer for a line nothing can read
  }
  // (Fourteenth round) A Windows path keeps its backslashes: the shell's grammar reads `C:\Users\x` as escapes, but a
  // PowerShell or cmd line (`Copy-Item C:\ProgramData\Microsoft\Crypto\RSA\MachineKeys …`) means the folders.
  for (const o of out) {
    if (o.text.includes("\\") || o.end > text.length) continue;
    const written = text.slice(o.start, o.end);
    const quoted = /^(["']).*\1$/s.test(written);
    if (!quoted && /\s/.test(written)) continue;
    const raw = quoted ? written.slice(1, -1) : written;
    if (WINDOWS_PATH.test(raw)) o.text = raw.replace(/^@/, "");
  }
  return out;
}
/** A Windows path as written: a drive, a share, or a profile variable, then a backslash. */
const WINDOWS_PATH = /^@?(?:[A-Za-z]:\\|\\\\[^\\\s]|%[A-Za-z_]{1,40}%\\|\$env:[A-Za-z_]{1,40}\\)/;

const METADATA_ONLY = new Set(["chmod", "chown", "chgrp", "ls", "stat", "test", "[", "[[", "mkdir", "touch", "ssh", "ssh-keygen", "ssh-add", "ssh-copy-id", "realpath", "dirname", "basename", "file", "du", "wc", "readlink", "cd", "pushd", "which", "type", "echo", "printf", "git", "eval",
  // (Tenth round) signing tools use a key store without revealing it (paths-stores.ts).
  "keytool", "apksigner", "jarsigner", "signtool",
  // (Eleventh round) and so do code and firmware signers, a VPN client its profile, a playbook its vault password file.
  "cosign", "minisign", "signify", "sbsign", "kmodsign", "espsecure", "espsecure.py", "imgtool", "imgtool.py", "idf.py", "openvpn", "ansible-playbook"]);

/** Options whose value is a key or certificate the program authenticates with (TLS, SSH identity, a VNC server's password file), never prints or sends. */
const KEY_OPTION = /^--?(?:key|cert|cacert|ca-?cert|ca-?file|capath|ca|client-?key|client-?cert(?:ificate)?|tls-?key|tls-?cert|tls-?ca-?cert|tls-?ca(?:-file)?|ssl-?key|ssl-?cert|ssl-?ca|key-?file|cert-?file|tls-?key-?file|tls-?cert-?file|trusted-ca-file|peer-key-file|peer-cert-file|peer-trusted-ca-file|identity-?file|private-?key-?file|rfbauth|passwd-?file|password-?file)(?:=|$)/i;
/** Programs whose `-i` names the SSH identity they log in with. */
const IDENTITY_I = new Set(["scp", "sftp", "ssh", "autossh", "mosh"]);

function usesKeyOption(name: string, word: string): boolean {
  if (word === "-i") return IDENTITY_I.has(name);
  // (Programs that print or convert a key take it by `-in`, `openssl rsa -in key.pem`: not one of these options.)
  return KEY_OPTION.test(word);
}

function collectOperands(s: Script, out: { text: string; start: number; end: number; writes: boolean }[], depth: number): void {
  for (const p of s.pipelines) {
    for (const c of p.commands) {
      const r = resolve(c);
      if (r.name && !METADATA_ONLY.has(r.name)) {
        for (let k = 0; k < r.args.length; k++) {
          const w = r.args[k] as (typeof r.args)[number];
          // (Thirteenth round, "cps13") A key or certificate handed to a client's TLS or login option is used, not
          // read out: `etcdctl --key=/etc/kubernetes/pki/etcd/server.key snapshot save …`, `curl --cert c.pem --key
          // c.key https://…`, `scp -i ~/.ssh/deploy_key dist.tgz host:` (the option's word and the one after it).
          if (usesKeyOption(r.name, w.text)) {
            if (!w.text.includes("=")) k++;
            continue;
          }
          if (w.text.startsWith("-") && !w.text.includes("=")) continue;
          const value = w.text.includes("=") && w.text.startsWith("-") ? w.text.slice(w.text.indexOf("=") + 1) : w.text;
          out.push({ text: value.replace(/^@/, ""), start: w.start, end: w.end, writes: false });
        }
      }
      for (const d of c.redirects) if (d.target && !/^&?\d*-?$/.test(d.target.text) && d.body === undefined) out.push({ text: d.target.text, start: d.target.start, end: d.target.end, writes: d.op.startsWith(">") || d.op === "&>" || d.op === "&>>" });
      if (depth < MAX_DEPTH) {
        for (const w of c.words) for (const sub of w.subs) collectOperands(sub, out, depth + 1);
        const payload = SHELLS.has(r.name) ? shellPayload(r.args) : null;
        if (payload && payload.text.length <= SEGMENT) {
          const inner: { text: string; start: number; end: number; writes: boolean }[] = [];
          collectOperands(parseShell(payload.text), inner, depth + 1);
          for (const o of inner) out.push({ ...o, start: payload.start, end: payload.end });
        }
      }
    }
  }
}
