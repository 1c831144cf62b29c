/*
 * (Tenth round, "cps10") What a command destroys, judged by the kind of thing it reaches rather than by one CLI's
 * spelling (docs/detection.md, "Tenth round: what a command destroys, key stores, secrets"). Four families, each a check
 * over a resolved command's program and words:
 *
 * - **every resource of a cluster or every object of a data service**: `kubectl`/`oc delete` across all namespaces
 *   (`-A`, `--all-namespaces`), every namespace, persistent volume or custom resource definition (`--all`), or `--all`
 *   of anything in a namespace named for production or the cluster's own (`kube-system`); Firebase's
 *   `firestore:delete --all-collections` and `database:remove /`; a whole bucket emptied (`aws s3 rm s3://b --recursive`,
 *   `gsutil rm -r gs://b`, `gcloud storage rm -r gs://b`, `mc rm -r --force a/b`, `rclone purge remote:b`) — with the
 *   target at the bucket's root, not a prefix under it. A development, test, preview or emulator target passes (Firebase
 *   emulator projects are `demo-…`), as does `--dry-run`;
 * - **a device's irreplaceable partitions**: `fastboot erase|format` of the partitions a phone cannot get back from an
 *   image (calibration and keys: `persist`, `modemst*`, `fsg`, `efs`, `nvram`, `nvdata`, `devinfo`, `frp`, `keymaster`…;
 *   the boot chain: `abl`, `xbl`, `aboot`, `sbl*`, `tz`, `rpm`, `hyp`, `bootloader`, `preloader`, `lk`), and `dd` over an
 *   Android device's whole flash or one of those partitions (`/dev/block/by-name/persist`). `fastboot erase userdata|cache|system` (a factory reset,
 *   Google's GSI steps), `fastboot flash boot …` pass;
 * - **the data of a service or a phone deleted recursively**: `rm -r` of a database's data folder or anything in it
 *   (`/var/lib/postgresql`, `mysql`, `mongodb`, `redis`, `etcd`, `elasticsearch`, `docker/volumes`…; a pid, lock or log
 *   file passes), of a write-ahead log (`pg_wal`, `pg_xlog`, by any rm), of a backup folder's whole content
 *   (`/var/backups/*`, `/backup`, `/srv/backups/`; one dated file or a dated glob passes: rotation), of a phone's shared
 *   or app storage (`/sdcard/*`, `/storage/emulated/0`, `/data/data`, `/data/media/0`; a folder inside passes);
 * - **snapshots and backup repositories destroyed** (`.recovery_delete`, as shadow copies are on Windows): `zfs destroy`
 *   recursive of a pool or dataset, or of every snapshot (`pool@%`), `zpool destroy`, `btrfs subvolume delete` of a
 *   snapshots folder's content, `borg delete` of a whole repository, `lvremove` of a
 *   whole volume group, `tmutil delete` of every backup. One named snapshot, listing, pruning by policy pass.
 */

export interface WipeFinding {
  type: string;
  detail: string;
}

const DEV = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|localhost|tmp|temp|scratch|sandbox|ci|e2e|pr|preview|ephemeral|demo|qa|emulator|staging-\d+|review)(?:[^a-z]|$)|^demo-|^pr-?\d+$/i;
const PRODUCTION = /(?:^|[^a-z])(?:prod|production|prd|live)(?:[^a-z]|$)|^kube-system$|^kube-public$|^default$/i;

/** Kinds whose `--all` is cluster-wide data or the cluster itself. */
const CLUSTER_KINDS = /^(?:namespaces?|ns|pv|persistentvolumes?|crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?|nodes?|no)$/i;

function optionValue(a: readonly string[], names: RegExp): string | null {
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    const eq = t.indexOf("=");
    if (eq > 0 && names.test(t.slice(0, eq))) return t.slice(eq + 1);
    if (names.test(t)) return a[i + 1] ?? "";
  }
  return null;
}

function clusterWipe(a: readonly string[]): string | null {
  // (The verb may follow global options and their values: `--context prod delete …`.)
  const verb = a.indexOf("delete");
  if (verb < 0 || verb > 6 || a.includes("--dry-run") || a.some((t) => /^--dry-run=(?:client|server|true)$/.test(t))) return null;
  const allNs = a.some((t) => t === "-A" || t === "--all-namespaces" || t === "--all-namespaces=true");
  const all = a.some((t) => t === "--all" || t === "--all=true");
  const kinds = a.slice(verb + 1).filter((t) => !t.startsWith("-")).flatMap((t) => t.split(","));
  const ns = optionValue(a, /^(?:-n|--namespace)$/) ?? "";
  if (allNs && (all || a.some((t) => /^(?:-l|--selector|--field-selector)/.test(t)) === false)) return "deletes resources across every namespace of the cluster";
  if (all && kinds.some((k) => CLUSTER_KINDS.test(k))) return "deletes every namespace, volume or resource definition of the cluster";
  if (all && ns !== "" && PRODUCTION.test(ns) && !DEV.test(ns)) return "deletes every resource of a production or system namespace";
  if (kinds[0] !== undefined && /^(?:namespaces?|ns)$/i.test(kinds[0]) && kinds.slice(1).some((k) => PRODUCTION.test(k) && !DEV.test(k))) return "deletes a production or system namespace";
  return null;
}

/** A bucket URL at its root: `s3://b`, `s3://b/`, `gs://b/*`, `gs://b/**`. */
const BUCKET_ROOT = /^(?:s3|gs|az|r2|b2|oss|cos):\/\/([^/\s]{1,255})\/?(?:\*{1,2})?$/i;

function serviceWipe(name: string, a: readonly string[]): string | null {
  if (a.includes("--dry-run") || (name === "rclone" && a.includes("-n"))) return null;
  const project = optionValue(a, /^(?:--project|-P)$/) ?? "";
  if (name === "firebase") {
    if (DEV.test(project)) return null;
    // (The command word may follow another: a tool named `firebase_cli` gives `firebase cli firestore:delete …`.)
    const at = a.findIndex((t) => /^(?:firestore:delete|database:remove)$/.test(t));
    if (at < 0 || at > 2) return null;
    if (a[at] === "firestore:delete" && a.includes("--all-collections")) return "deletes every Firestore collection of a project";
    if (a[at] === "database:remove" && a.slice(at + 1).some((t) => t === "/" || t === "/*")) return "removes a Realtime Database from its root";
    return null;
  }
  const recursive = a.some((t) => t === "--recursive" || t === "-r" || t === "-R" || (/^-[a-zA-Z]{2,5}$/.test(t) && /[rR]/.test(t)));
  const root = a.map((t) => BUCKET_ROOT.exec(t)).find((m) => m !== null);
  const bucket = root?.[1] ?? "";
  if (root && !DEV.test(bucket)) {
    if (name === "aws" && a[0] === "s3" && a[1] === "rm" && recursive) return "empties a whole bucket";
    if ((name === "gsutil" && (a.includes("rm") && recursive)) || (name === "gcloud" && a[0] === "storage" && a[1] === "rm" && recursive)) return "empties a whole bucket";
  }
  if (name === "mc" && a[0] === "rm" && recursive && a.includes("--force")) {
    const target = a.slice(1).filter((t) => !t.startsWith("-"));
    if (target.some((t) => /^[\w.-]{1,64}\/[^/\s]{1,255}\/?$/.test(t) && !DEV.test(t))) return "empties a whole bucket";
  }
  if (name === "rclone" && a[0] === "purge") {
    const target = a[1] ?? "";
    if (/^[\w.-]{1,64}:[^/\s]{0,255}\/?$/.test(target) && !DEV.test(target)) return "purges a whole remote or bucket";
  }
  return null;
}

/** Partitions a phone cannot get back from a factory image: calibration, radio, keys, and the boot chain. */
const IRREPLACEABLE = /^(?:persist|persistent|persistbak|modemst[12]|fsg|fsc|efs|efs1|efs2|nvram|nvdata|nvcfg|protect[12]?|proinfo|devinfo|frp|keymaster|keystore|secdata|sec_efs|cdt|ddr|abl|xbl|xbl_config|aboot|sbl\d?|tz|rpm|hyp|pmic|bootloader|preloader|lk|uboot|u-boot|mmcblk\d|ufs|gpt|partition)(?:_[ab]|_bak)?$/i;

function deviceWipe(name: string, a: readonly string[]): string | null {
  if (name === "fastboot") {
    for (let i = 0; i < a.length; i++) {
      if ((a[i] === "erase" || a[i] === "format" || /^format:/.test(a[i] as string)) && IRREPLACEABLE.test(a[i + 1] ?? "")) return `fastboot ${a[i]} of a partition a factory image cannot restore`;
    }
  }
  if (name === "dd" && a.some((t) => t.startsWith("of=") && lostBlock(t.slice(3)))) return "dd over a device's flash or an irreplaceable partition";
  if ((name === "blkdiscard" || (name === "sgdisk" && a.some((t) => /^(?:-Z|--zap-all|-o|--clear)$/.test(t)))) && a.some(lostBlock)) return `${name} over a device's flash or an irreplaceable partition`;
  return null;
}

/** An Android block device: a partition by name (group 1), or the whole flash (no group). */
const ANDROID_BLOCK = /^\/dev\/block\/(?:(?:platform\/[^/\s]{1,80}\/|bootdevice\/)?by-name\/([\w-]{1,40})|mmcblk\d|sd[a-z])$/;

/** The whole flash, or a partition by name that no image restores (`recovery`, `boot` written with dd pass: rooting steps). */
function lostBlock(t: string): boolean {
  const m = ANDROID_BLOCK.exec(t);
  return m !== null && (m[1] === undefined || IRREPLACEABLE.test(m[1]));
}

/** Databases' and stores' data folders: anything deleted in them is the data. */
const DATA_ROOT = /^\/var\/lib\/(?:postgresql|pgsql|postgres|mysql|mariadb|mongodb|mongo|redis|redis-server|etcd|elasticsearch|opensearch|cassandra|clickhouse|influxdb|couchdb|neo4j|rabbitmq|minio|docker\/volumes|containers\/storage\/volumes|mssql|scylla|cockroach|zookeeper|kafka|vault)(?:\/|$)/;
/** Files in a data folder whose deletion is housekeeping. */
const HOUSEKEEPING = /(?:\.pid|\.lock|\.sock|\.log|\.tmp|\/tmp|\/logs?|\/log\/[^/]*)$/;
/** Where backups live: deleting the folder or all its content loses them (one file, a dated glob pass). */
const BACKUP_ROOT = /^(?:\/var\/backups?|\/backups?|\/srv\/backups?|\/mnt\/backups?|\/data\/backups?|\/opt\/backups?|\/var\/lib\/(?:pgbackrest|barman|backups?)|\/var\/opt\/gitlab\/backups)$/;
/** (Eleventh round) Where a server keeps its archives, and one top folder of one. */
const ARCHIVE_TREE = /^(?:\/srv|\/var|\/mnt|\/data|\/opt|\/media|\/storage|\/export)?(?:\/[\w.-]{1,64})?\/(?:archives?|archive-\w{1,40})(?:\/[^/*{}.]{1,120})?$/;
/** A phone's user storage and app data: the root, or every entry of it. */
const PHONE_STORAGE = /^(?:\/sdcard|\/storage\/emulated\/0|\/storage\/self\/primary|\/mnt\/sdcard|\/data\/media\/0|\/data\/data|\/data\/user\/0|\/data\/user_de\/0|\/data\/app)$/;

/** A folder, its `/`, `/*`, `/.*` or `/{*,.*}`: the folder's whole content. */
function wholeOf(t: string, root: RegExp): boolean {
  const m = /^(.+?)(?:\/(?:\*|\.\*|\{\*,\.\*\}|\.\[!.\]\*)?)?$/.exec(t);
  return m !== null && root.test(m[1] as string);
}

function dataDelete(name: string, a: readonly string[]): string | null {
  if (name !== "rm" && name !== "shred" && name !== "srm") return null;
  const operands = a.filter((t) => !t.startsWith("-"));
  const recursive = a.some((t) => t === "--recursive" || (/^-[a-zA-Z]+$/.test(t) && /[rR]/.test(t)));
  if (operands.some((t) => /(?:^|\/)(?:pg_wal|pg_xlog)(?:\/|$)/.test(t) && t.startsWith("/") && !/\.(?:backup|history)$/.test(t))) return "deletes a database's write-ahead log";
  if (!recursive) return null;
  if (operands.some((t) => DATA_ROOT.test(t) && !HOUSEKEEPING.test(t))) return "deletes a database's or a store's data folder recursively";
  if (operands.some((t) => wholeOf(t, BACKUP_ROOT))) return "deletes every backup in a backup folder";
  // (Eleventh round) An archive's whole content, or the whole of one of its top folders (`/srv/archive/photos/*`).
  if (operands.some((t) => wholeOf(t, ARCHIVE_TREE) && !DEV.test(t))) return "deletes an archive's whole content";
  if (operands.some((t) => wholeOf(t, PHONE_STORAGE))) return "deletes a phone's whole shared storage or app data";
  return null;
}

function snapshotsDestroyed(name: string, a: readonly string[]): string | null {
  const operands = a.filter((t) => !t.startsWith("-"));
  if (name === "zfs" && a[0] === "destroy" && !a.some((t) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(t))) {
    const targets = operands.slice(1);
    const recursive = a.some((t) => /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(t));
    if (targets.some((t) => /@%$/.test(t))) return "zfs destroys every snapshot of a dataset";
    if (recursive && targets.some((t) => /^[\w.:-]{1,64}$/.test(t) && !DEV.test(t))) return "zfs destroys a whole pool's datasets and snapshots";
    // (Eleventh round) A pool's top-level dataset (`tank/research`) with every child and snapshot: a whole share's
    // data. Deeper datasets (`tank/ci/build-42`, a clone, a scratch volume) pass.
    if (recursive && targets.some((t) => /^[\w.:-]{1,64}\/[\w.:-]{1,64}$/.test(t) && !DEV.test(t))) return "zfs destroys a pool's top-level dataset with its children and snapshots";
  }
  if (name === "zpool" && a[0] === "destroy") return "zpool destroys a storage pool";
  if (name === "btrfs" && a[0] === "subvolume" && a[1] === "delete" && operands.slice(2).some((t) => /(?:^|\/)\.?snapshots\/(?:\*|\d+\/snapshot\/?\*?)?$/.test(t) && t.endsWith("*"))) return "btrfs deletes every snapshot";
  if (name === "borg" && a[0] === "delete" && operands.slice(1).some((t) => !t.includes("::")) && !a.includes("--dry-run") && !a.some((t) => /^--(?:keep|prefix|glob-archives|match-archives)/.test(t))) return "borg deletes a whole backup repository";
  if (name === "tmutil" && a[0] === "delete" && a.some((t) => /^\/Volumes\/[^/]{1,80}\/Backups\.backupdb\/[^/]{1,80}\/?\*?$/.test(t))) return "tmutil deletes every Time Machine backup";
  if (name === "lvremove" && operands.some((t) => /^(?:\/dev\/)?[\w.-]{1,64}\/?$/.test(t)) && a.some((t) => /^-[a-zA-Z]*[fy][a-zA-Z]*$|^--(?:force|yes)$/.test(t))) return "lvremove removes every volume of a group";
  return null;
}

/** Judges one resolved command: its name (as commands.ts resolves it) and its words. */
export function judgeWipe(name: string, a: readonly string[], depth = 0): WipeFinding[] {
  const out: WipeFinding[] = [];
  // `adb [-s serial] shell <command…>`: the device runs the rest as a command line (split at its plain separators).
  if (name === "adb" && depth === 0) {
    const at = a.indexOf("shell");
    if (at >= 0 && at <= 4) {
      const rest = a.slice(at + 1).join(" ");
      for (const part of rest.slice(0, 4096).split(/\s{0,4}(?:&&|\|\||;)\s{0,4}/).slice(0, 16)) {
        const words = part.trim().split(/\s{1,16}/).filter((w) => w !== "");
        while (words[0] === "su" || words[0] === "-c" || words[0] === "0" || words[0] === "root") words.shift();
        if (words.length > 0) out.push(...judgeWipe(words[0] as string, words.slice(1), 1));
      }
    }
    return out;
  }
  if (name === "kubectl" || name === "oc") {
    const d = clusterWipe(a);
    if (d) out.push({ type: "dangerous_command.infrastructure_teardown", detail: `${name} ${d}` });
  }
  // A command-line tool named for the CLI (`firebase_cli(args: "firestore:delete …")`) runs Firebase's own subcommands:
  // their `topic:verb` names belong to no other program.
  const s = /^(?:firestore:delete|database:remove)$/.test(name) ? serviceWipe("firebase", [name, ...a]) : serviceWipe(name, a);
  if (s) out.push({ type: "dangerous_command.infrastructure_teardown", detail: `${name} ${s}` });
  const dev = deviceWipe(name, a);
  if (dev) out.push({ type: name === "fastboot" ? "dangerous_command.disk_format" : "dangerous_command.disk_overwrite", detail: dev });
  const data = dataDelete(name, a);
  if (data) out.push({ type: "dangerous_command.recursive_delete", detail: data });
  const snap = snapshotsDestroyed(name, a);
  if (snap) out.push({ type: "dangerous_command.recovery_delete", detail: snap });
  return out;
}

/** Words that make a line worth parsing for these families (added to commands.ts's triggers). */
export const WIPE_TRIGGERS = ["fastboot", "firebase", "zfs", "zpool", "btrfs", "borg", "tmutil", "lvremove", "mc", "rclone", "adb", "firestore", "blkdiscard", "sgdisk", "oc", "srm"];
