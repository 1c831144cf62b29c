import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers.js";

/*
 * guardwire as a new user gets it: `npm pack`, the tarball unpacked into a fresh project's node_modules (what
 * `npm install <tgz>` does), then imported from ESM and from TypeScript. The runtime dependencies are linked from this
 * repository's node_modules rather than fetched, so the test needs no network and takes seconds.
 */

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** Every ```ts block of the README and docs/ that imports "guardwire": the examples a user copies. */
function docExamples(): { name: string; code: string }[] {
  const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];
  return files.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1] as string)
      .filter((code) => code.includes('from "guardwire"'))
      .map((code, i) => ({ name: `${file.replace(/[/.]/g, "-")}-${i}`, code })),
  );
}

describe("the packed package, installed in a fresh project", () => {
  let project: string;
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  /** tsc prints its diagnostics on stdout: returned with the exit status. */
  const tsc = (...args: string[]) => {
    const r = spawnSync(process.execPath, [TSC, "-p", ".", ...args], { cwd: project, encoding: "utf8" });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  beforeAll(() => {
    project = tempDir("guardwire-consumer-");
    const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], { cwd: ROOT, encoding: "utf8" })) as [{ filename: string }];
    const target = join(project, "node_modules", "guardwire");
    mkdirSync(target, { recursive: true });
    execFileSync("tar", ["-xzf", join(project, packed[0].filename), "-C", target, "--strip-components=1"]);
    const manifest = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    for (const dep of [...Object.keys(manifest.dependencies), "@types/node"]) {
      const link = join(project, "node_modules", dep);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", dep), link, "dir");
    }
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: ["node"], skipLibCheck: true, outDir: "out" }, include: ["*.ts"] }),
    );
  }, 120_000);

  it("imports from ESM, with the library's names and the shipped rule packs", () => {
    const out = run(process.execPath, [
      "--input-type=module",
      "-e",
      `import * as g from "guardwire";
       import { fileURLToPath } from "node:url";
       const pack = fileURLToPath(import.meta.resolve("guardwire/rules/balanced.yaml"));
       const { ruleSet } = g.loadRules(g.readRuleSources(pack));
       const verdict = new g.EmbeddedGuardian(ruleSet).call(g.buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { direction: "outbound" }));
       console.log(JSON.stringify({ names: Object.keys(g).sort(), decision: verdict.result.decision }));`,
    ]);
    const seen = JSON.parse(out) as { names: string[]; decision: string };
    expect(seen.names).toEqual(expect.arrayContaining(["EmbeddedGuardian", "RemoteGuardian", "ChainGuardian", "createGuardianHttpServer", "DecisionLog", "verifyChain", "loadConfig", "createGuardServer", "GuardwireError"]));
    expect(seen.decision).toBe("allow");
  });

  it("ships the console's page and scripts (no CDN: the browser loads only these)", () => {
    const dir = join(project, "node_modules", "guardwire", "dist", "console");
    const html = readFileSync(join(dir, "index.html"), "utf8");
    const local = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string).filter((u) => u !== "data:,");
    expect(local).toEqual(["/console/style.css", "/console/main.js"]);
    for (const f of ["style.css", "main.js", "dom.js", "api.js"]) expect(readFileSync(join(dir, f), "utf8").length, f).toBeGreaterThan(0);
  });

  it("loads with require() too (Node ≥ 20.19 loads ES modules synchronously)", () => {
    const out = run(process.execPath, ["-e", `console.log(typeof require("guardwire").EmbeddedGuardian)`]);
    expect(out.trim()).toBe("function");
  });

  it("type-checks TypeScript that uses the exported types", () => {
    writeFileSync(
      join(project, "types.ts"),
      `import type { Decision, DecisionRecord, Guardian, AosRequest, AosResponse, GuardwireErrorCode, Verdict } from "guardwire";
import { EmbeddedGuardian, readVerdict } from "guardwire";
const audit: Guardian = { call: (r: AosRequest): AosResponse => ({ jsonrpc: "2.0", id: r.id, result: { decision: "allow", message: "ok" } }) };
const code: GuardwireErrorCode = "CONFIG_INVALID";
export type Seen = [Decision, DecisionRecord, Verdict, typeof audit, typeof code, typeof EmbeddedGuardian, typeof readVerdict];
`,
    );
    // A misuse must fail: the types are really read, not silently any.
    writeFileSync(join(project, "misuse.ts"), `import { EmbeddedGuardian } from "guardwire";\nnew EmbeddedGuardian("not a rule set");\n`);
    const misuse = tsc("--noEmit");
    expect(misuse.out).toMatch(/misuse\.ts.*TS2345/);
    expect(misuse.out.replace(/^misuse\.ts.*$/gm, "").trim()).toBe("");
    rmSync(join(project, "misuse.ts"));
    expect(tsc("--noEmit")).toEqual({ status: 0, out: "" });
  }, 60_000);

  it("runs the README and docs examples as written", () => {
    const examples = docExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const e of examples) writeFileSync(join(project, `${e.name}.ts`), e.code);
    expect(tsc()).toEqual({ status: 0, out: "" });
    for (const e of examples) {
      const out = run(process.execPath, [join("out", `${e.name}.js`)]);
      expect(out.length, e.name).toBeGreaterThan(0);
      // An example that says what it prints (`console.log(…); // deny`) must print that.
      const promised = /console\.log\(.*\); \/\/ (\w+)$/m.exec(e.code)?.[1];
      if (promised) expect(out.trim(), e.name).toBe(promised);
    }
  }, 60_000);
});
