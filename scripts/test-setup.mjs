// `npm test` runs this first: the suite drives a real Redis, a real HAProxy and a real Chromium, and this makes sure
// they are here before anything runs. On Debian as root it installs what is missing with apt-get (nothing when all
// is there: it only looks); anywhere else it prints one line per missing tool with the command that installs it
// (Debian and macOS) and exits 1 before any test runs. `--dry-run` says what it would do and does nothing.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Where the console's browser tests look for Chromium (test/console/browser.ts reads the same). */
export function chromiumPath(env = process.env, platform = process.platform) {
  return env.GUARDWIRE_CHROMIUM || (platform === "darwin" ? "/Applications/Chromium.app/Contents/MacOS/Chromium" : "/usr/bin/chromium");
}

/** What the tests need, how each is found, and the command that installs it. */
export const TOOLS = [
  { name: "redis-server", apt: "redis-server", brew: "brew install redis", why: "test/store, test/scale: a real Redis" },
  { name: "haproxy", apt: "haproxy", brew: "brew install haproxy", why: "test/scale: replicas behind a real HAProxy" },
  { name: "chromium", apt: "chromium", brew: "brew install --cask chromium", why: "test/console: the console in a real browser", at: chromiumPath },
];

/**
 * The tools missing here. A tool with `at` is looked for at that path (as its tests do); the others on PATH, as the
 * tests' `command -v` does. `sbin`: found only in an sbin folder that is not on PATH (a non-root user's PATH on Debian).
 */
export function findMissing({ env = process.env, platform = process.platform, executable = isExecutable } = {}) {
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  const missing = [];
  for (const tool of TOOLS) {
    if (tool.at) {
      if (!executable(tool.at(env, platform))) missing.push({ ...tool, where: tool.at(env, platform) });
      continue;
    }
    if (dirs.some((d) => executable(join(d, tool.name)))) continue;
    const sbin = ["/usr/sbin", "/sbin", "/usr/local/sbin"].find((d) => !dirs.includes(d) && executable(join(d, tool.name)));
    missing.push(sbin ? { ...tool, sbin } : tool);
  }
  return missing;
}

/**
 * What to do, from what is missing and where we are: run the tests, install with apt-get (Debian, as root), or stop
 * with one line per missing tool.
 */
export function decide({ missing, uid, debian, aptGet }) {
  if (missing.length === 0) return { action: "run" };
  const fixable = missing.filter((t) => !t.sbin);
  if (uid === 0 && debian && aptGet && fixable.length === missing.length) return { action: "install", packages: missing.map((t) => t.apt) };
  const sudo = uid === 0 ? "" : "sudo ";
  const width = Math.max(...missing.map((t) => t.name.length));
  const lines = missing.map((t) =>
    t.sbin
      ? `  ${t.name.padEnd(width)}  installed at ${join(t.sbin, t.name)}, but ${t.sbin} is not on PATH: export PATH="$PATH:${t.sbin}"`
      : `  ${t.name.padEnd(width)}  Debian: ${sudo}apt-get install -y ${t.apt}    macOS: ${t.brew}    (${t.why})`,
  );
  return { action: "stop", lines: ["npm test needs tools that are not here; install them, then run npm test again:", ...lines] };
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDebian() {
  if (existsSync("/etc/debian_version")) return true;
  try {
    return /^ID(_LIKE)?=.*\bdebian\b/m.test(readFileSync("/etc/os-release", "utf8"));
  } catch {
    return false;
  }
}

function main(argv) {
  const dryRun = argv.includes("--dry-run");
  const facts = { uid: process.getuid?.() ?? -1, debian: process.platform === "linux" && isDebian(), aptGet: isExecutable("/usr/bin/apt-get") };
  const plan = decide({ missing: findMissing(), ...facts });
  if (plan.action === "run") return 0;
  if (plan.action === "stop") {
    process.stderr.write(plan.lines.join("\n") + "\n");
    return 1;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const steps = [["apt-get", ["update"]], ["apt-get", ["install", "-y", ...plan.packages]]];
  process.stderr.write(`npm test: installing what the tests need with apt-get (as root): ${plan.packages.join(" ")}\n`);
  for (const [cmd, args] of steps) {
    if (dryRun) {
      process.stdout.write(`would run: ${cmd} ${args.join(" ")}\n`);
      continue;
    }
    const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env });
    if (r.status !== 0) {
      process.stderr.write(`npm test: ${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal}); install ${plan.packages.join(" ")} by hand, then run npm test again\n`);
      return 1;
    }
  }
  if (dryRun) return 0;
  const still = findMissing();
  if (still.length > 0) {
    process.stderr.write(`npm test: still missing after apt-get: ${still.map((t) => t.name).join(", ")}\n`);
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = main(process.argv.slice(2));
