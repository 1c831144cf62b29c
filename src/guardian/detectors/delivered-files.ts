import { childrenOf } from "./scan.js";
import type { RoledSite } from "./sites.js";

/*
 * (Twelfth round, "cps12") Files a remote agent delivers (A2A artifacts, streamed or not, and a reply's parts) that
 * the calling agent will run or apply, recognised by what the file is rather than by a shebang alone:
 *
 * - **a script by its name**: an artifact named `plan.sh`, `fix.ps1`, `setup.bat`… is a script even without `#!`
 *   (the dangerous-commands detector then reads its lines as it reads a tool's command);
 * - **a workload manifest**: text with an `apiVersion:` and a workload `kind:` (Pod, Deployment, DaemonSet,
 *   StatefulSet, Job, CronJob, ReplicaSet), judged as `kubectl apply` judges one (commands.ts's podReachesHost: a
 *   privileged pod in the node's process namespace, a hostPath of the node's root, a command that enters the node).
 *
 * Only what a remote agent's reply delivers (an `artifact`, `artifacts` or `parts` under `result`, not the task's
 * history): an MCP tool's result (`result.content[…]`) is a file the user asked to read, not one handed over to run.
 */

const SCRIPT_NAME = /\.(?:sh|bash|zsh|ksh|command|ps1|psm1|bat|cmd)$/i;
const MANIFEST_KIND = /^[ \t]{0,8}kind:[ \t]{0,8}["']?(?:Pod|Deployment|DaemonSet|StatefulSet|Job|CronJob|ReplicaSet)["']?[ \t]{0,8}$/m;
const MANIFEST_API = /^[ \t]{0,8}apiVersion:[ \t]{0,8}\S/m;

/** Whether a site is a text part of something a remote agent's reply delivers. */
function delivered(p: readonly (string | number)[]): boolean {
  const last = p[p.length - 1];
  // (Fifteenth round) A file part's content too (`file.bytes`, visited decoded when it holds text), not only a text part.
  const body = last === "text" || ((last === "bytes" || last === "raw") && p[p.length - 2] === "file");
  return p[0] === "result" && !p.includes("history") && body && (p.includes("artifact") || p.includes("artifacts") || p.includes("parts"));
}

/** The name of the artifact (or file part) a text part belongs to, when the reply names it. */
function nameOf(site: RoledSite, sites: readonly RoledSite[]): string | null {
  const p = site.path;
  // A file part's own name (`file: { name: "fix.ps1", bytes }`) first, then its artifact's.
  if (p[p.length - 2] === "file") {
    const own = childrenOf(sites, p.slice(0, -1)).find((s) => s.path[p.length - 1] === "name")?.value;
    if (own !== undefined) return own;
  }
  const parts = p.lastIndexOf("parts");
  if (parts < 1) return null;
  return childrenOf(sites, p.slice(0, parts)).find((s) => s.path[parts] === "name")?.value ?? null;
}

/** A delivered text part whose artifact is named as a script (see above). */
export function namedScript(site: RoledSite, sites: readonly RoledSite[]): boolean {
  if (!delivered(site.path)) return false;
  const name = nameOf(site, sites);
  return name !== null && name.length <= 256 && SCRIPT_NAME.test(name.trim());
}

/** A delivered text part that is a workload manifest (see above). */
export function deliveredManifest(site: RoledSite): boolean {
  if (!delivered(site.path) || site.value.length > 262144) return false;
  const head = site.value.slice(0, 65536);
  return MANIFEST_API.test(head) && MANIFEST_KIND.test(head);
}
