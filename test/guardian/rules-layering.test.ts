import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate, type MessageContext } from "../../src/guardian/evaluate.js";
import { loadRules, PACKS_DIR, readRuleSources, type LoadedRules } from "../../src/guardian/rules/load.js";
import { watchRules } from "../../src/guardian/rules/watch.js";
import { formatProblem } from "../../src/guardian/rules/load.js";
import { tempDir } from "../helpers.js";

const out: MessageContext = { direction: "outbound" };
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const credentialRead = call("read_file", { path: "~/.ssh/id_rsa" });

/** Writes files under a fresh directory and returns its path. */
function tree(files: Record<string, string>): string {
  const dir = tempDir("guardwire-layers-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const load = (...paths: string[]): LoadedRules => loadRules(paths.flatMap((p) => readRuleSources(p)));
const messages = (l: LoadedRules) => l.problems.map(formatProblem);

const DEPLOY = `  - { id: no-prod-deploys, match: { tool: "deploy_*" }, when: 'has(args.env) && args.env == "prod"', decision: deny }\n`;

describe("extends", () => {
  it("loads a shipped pack by name before the file's own rules, as one set", () => {
    const dir = tree({ "mine.yaml": `name: mine\nextends: balanced\nrules:\n${DEPLOY}` });
    const l = load(join(dir, "mine.yaml"));
    expect(messages(l)).toEqual([]);
    const balanced = load(join(PACKS_DIR, "balanced.yaml")).ruleSet!;
    expect(l.ruleSet!.name).toBe("balanced+mine");
    expect(l.ruleSet!.rules.map((r) => r.id)).toEqual([...balanced.rules.map((r) => r.id), "no-prod-deploys"]);
    expect(l.files).toEqual([join(dir, "mine.yaml"), join(PACKS_DIR, "balanced.yaml")]);
    expect(evaluate("mcp", call("deploy_app", { env: "prod" }), out, l.ruleSet!).decision).toBe("deny");
    expect(evaluate("mcp", call("deploy_app", { env: "dev" }), out, l.ruleSet!).decision).toBe("allow");
    expect(evaluate("mcp", credentialRead, out, l.ruleSet!).rules).toEqual(["no-credential-files"]);
  });

  it("resolves a path relative to the extending file, not the working directory", () => {
    const dir = tree({
      "team/base.yaml": "name: base\nrules:\n  - { id: no-rm, match: { tool: rm }, decision: deny }\n",
      "team/sub/mine.yaml": "name: mine\nextends: ../base.yaml\nrules: []\n",
    });
    const l = load(join(dir, "team", "sub", "mine.yaml"));
    expect(messages(l)).toEqual([]);
    expect(l.ruleSet!.rules.map((r) => [r.id, r.file])).toEqual([["no-rm", join(dir, "team", "sub", "..", "base.yaml")]]);
  });

  it("loads a file reached twice once, at its first place", () => {
    const dir = tree({
      "base.yaml": "name: base\nrules:\n  - { id: b, match: { tool: b }, decision: deny }\n",
      "x.yaml": "name: x\nextends: ./base.yaml\nrules:\n  - { id: x, match: { tool: x }, decision: deny }\n",
      "y.yaml": "name: y\nextends: ./base.yaml\nrules:\n  - { id: y, match: { tool: y }, decision: deny }\n",
      "top.yaml": "name: top\nextends: [./x.yaml, ./y.yaml]\n",
    });
    const l = load(join(dir, "top.yaml"));
    expect(messages(l)).toEqual([]);
    expect(l.ruleSet!.name).toBe("base+x+y+top");
    expect(l.ruleSet!.rules.map((r) => r.id)).toEqual(["b", "x", "y"]);
  });

  it("refuses a cycle, naming it at the extends line that closes it", () => {
    const dir = tree({ "a.yaml": "name: a\nextends: ./b.yaml\n", "b.yaml": "name: b\nrules: []\nextends: [./a.yaml]\n" });
    const l = load(join(dir, "a.yaml"));
    expect(l.ruleSet).toBeUndefined();
    expect(messages(l)).toEqual([`${join(dir, "b.yaml")}:3:11: extends: extends cycle: a.yaml → b.yaml → a.yaml`]);
  });

  it("refuses an unknown pack or an unreadable file at the extends line", () => {
    const dir = tree({ "a.yaml": "name: a\nextends: [balancd, ./nope.yaml]\n" });
    const l = load(join(dir, "a.yaml"));
    expect(l.ruleSet).toBeUndefined();
    expect(messages(l)[0]).toMatch(/a\.yaml:2:11: extends\[0\]: extends: no shipped pack "balancd" \(shipped: .*balanced.*\)/);
    expect(messages(l)[1]).toMatch(/a\.yaml:2:20: extends\[1\]: extends: cannot read .*nope\.yaml: ENOENT/);
  });
});

describe("disable and rule ids", () => {
  it("drops an inherited rule, and lets its id be defined again", () => {
    const dir = tree({
      "mine.yaml":
        // (The text model's second opinion on tool calls is turned off too: with the rule gone it would refuse the read.)
        "name: mine\nextends: balanced\ndisable: [no-credential-files, text-model-calls]\nrules:\n" +
        "  - { id: no-credential-files, match: { tool: read_file }, when: 'has(args.path) && args.path.contains(\"id_rsa\")', decision: deny, reasonCode: MINE }\n",
    });
    const l = load(join(dir, "mine.yaml"));
    expect(messages(l)).toEqual([]);
    const ids = l.ruleSet!.rules.map((r) => r.id);
    expect(ids.filter((id) => id === "no-credential-files")).toHaveLength(1);
    expect(ids.at(-1)).toBe("no-credential-files");
    const d = evaluate("mcp", credentialRead, out, l.ruleSet!);
    expect(d.reasonCode).toEqual(["MINE"]);
    // The balanced rule is gone: an AWS credentials read is no longer denied by it.
    expect(evaluate("mcp", call("read_file", { path: "~/.aws/credentials" }), out, l.ruleSet!).decision).toBe("allow");
  });

  it("disables rules of an earlier --rules source too, and refuses an id that nothing defined before", () => {
    const dir = tree({ "off.yaml": "name: off\ndisable: [log-pii, no-such-rule]\n" });
    const l = loadRules([...readRuleSources("balanced"), ...readRuleSources(join(dir, "off.yaml"))]);
    expect(messages(l)).toEqual([`${join(dir, "off.yaml")}:2:20: disable[1]: disable: no rule "no-such-rule" is loaded before this file`]);
    const ok = loadRules([...readRuleSources("balanced"), { file: join(dir, "o.yaml"), text: "name: o\ndisable: [log-pii]\n" }]);
    expect(ok.ruleSet!.rules.map((r) => r.id)).not.toContain("log-pii");
  });

  it("names the file that defined a duplicate id first, however many files define it (issue 17, item 8)", () => {
    const rule = "rules:\n  - { id: same, decision: allow }\n";
    const l = loadRules([
      { file: "a.yaml", text: `name: a\n${rule}` },
      { file: "b.yaml", text: `name: b\n${rule}` },
      { file: "c.yaml", text: `name: c\n${rule}` },
    ]);
    expect(messages(l)).toEqual([
      'b.yaml:3:11: rules[0].id: duplicate rule id "same" (first defined in a.yaml)',
      'c.yaml:3:11: rules[0].id: duplicate rule id "same" (first defined in a.yaml)',
    ]);
  });
});

describe("default and mode", () => {
  const decide = (l: LoadedRules) => evaluate("mcp", call("unknown_tool", {}), out, l.ruleSet!);

  it("inherits the default of the pack extended; the extending file's own default wins", () => {
    const dir = tree({
      "inherit.yaml": "name: inherit\nextends: strict\n",
      "open.yaml": "name: open\nextends: strict\ndefault: allow\n",
    });
    const inherit = load(join(dir, "inherit.yaml"));
    expect(inherit.ruleSet!.default).toBe("deny");
    expect(decide(inherit).reasonCode).toEqual(["DEFAULT_DENY"]);
    const open = load(join(dir, "open.yaml"));
    expect(open.ruleSet!.default).toBe("allow");
    expect(decide(open).decision).toBe("allow");
    // strict's own rules still apply.
    expect(evaluate("mcp", credentialRead, out, open.ruleSet!).decision).toBe("deny");
  });

  it("side by side (several sources, an extends list), default: deny in any wins", () => {
    const dir = tree({ "allow.yaml": "name: allow\ndefault: allow\n", "both.yaml": "name: both\nextends: [balanced, strict]\n" });
    expect(load(join(dir, "allow.yaml"), "strict").ruleSet!.default).toBe("deny");
    expect(load("strict", join(dir, "allow.yaml")).ruleSet!.default).toBe("deny");
    expect(load(join(dir, "both.yaml")).ruleSet!.default).toBe("deny");
  });

  it("an extending file's mode applies to the rules it inherits, except rules that set their own", () => {
    const dir = tree({ "try.yaml": "name: try\nextends: balanced\nmode: audit\n", "plain.yaml": "name: plain\nextends: audit-only\n" });
    const audited = load(join(dir, "try.yaml")).ruleSet!;
    expect(new Set(audited.rules.map((r) => r.mode))).toEqual(new Set(["audit"]));
    const d = evaluate("mcp", credentialRead, out, audited);
    expect([d.decision, d.mode, d.audit?.decision]).toEqual(["allow", "audit", "deny"]);
    // A file that sets no mode leaves the pack's own.
    expect(new Set(load(join(dir, "plain.yaml")).ruleSet!.rules.map((r) => r.mode))).toEqual(new Set(["audit"]));
    const enforced = load(join(PACKS_DIR, "balanced.yaml")).ruleSet!;
    expect(enforced.rules.find((r) => r.id === "no-credential-files")!.mode).toBe("enforce");
  });

  it("a default: deny from an audit-mode file only audits; enforced if another deny-default file enforces it", () => {
    const dir = tree({ "a.yaml": "name: a\nmode: audit\ndefault: deny\n", "e.yaml": "name: e\ndefault: deny\n" });
    expect(load(join(dir, "a.yaml")).ruleSet!.defaultMode).toBe("audit");
    expect(load(join(dir, "a.yaml"), join(dir, "e.yaml")).ruleSet!.defaultMode).toBe("enforce");
  });
});

describe("a directory", () => {
  it("refuses the repository's rules/ (balanced, strict, audit-only): its files disagree on default", () => {
    const l = load(PACKS_DIR);
    expect(l.ruleSet).toBeUndefined();
    expect(messages(l)).toHaveLength(1);
    expect(messages(l)[0]).toContain("disagree on default (deny: strict.yaml; allow: audit-only.yaml, balanced.yaml)");
    expect(messages(l)[0]).toContain("extends:");
  });

  it("loads files that agree, in name order, with a file they extend loaded once", () => {
    const dir = tree({
      "b.yaml": "name: b\nextends: ./a.yaml\nrules:\n  - { id: b, match: { tool: b }, decision: deny }\n",
      "a.yaml": "name: a\nrules:\n  - { id: a, match: { tool: a }, decision: deny }\n",
      "a.test.yaml": "cases: []\n",
    });
    const l = load(dir);
    expect(messages(l)).toEqual([]);
    expect(l.ruleSet!.rules.map((r) => r.id)).toEqual(["a", "b"]);
  });

  it("judges a file's default after its extends: a file extending strict in a directory of allow files is refused", () => {
    const dir = tree({ "a.yaml": "name: a\n", "b.yaml": "name: b\nextends: strict\ndisable: [allow-known-tools]\n" });
    expect(messages(load(dir))[0]).toContain("disagree on default (deny: b.yaml; allow: a.yaml)");
  });
});

describe("the rules hash", () => {
  it("covers the text of every file loaded, extended ones included, not their paths", () => {
    const base = "name: base\nrules:\n  - { id: b, match: { tool: b }, decision: deny }\n";
    const one = tree({ "base.yaml": base, "top.yaml": "name: top\nextends: ./base.yaml\n" });
    const two = tree({ "base.yaml": base, "top.yaml": "name: top\nextends: ./base.yaml\n" });
    const h1 = load(join(one, "top.yaml")).ruleSet!.hash;
    expect(load(join(two, "top.yaml")).ruleSet!.hash).toBe(h1);
    writeFileSync(join(two, "base.yaml"), base.replace("deny", "allow"));
    expect(load(join(two, "top.yaml")).ruleSet!.hash).not.toBe(h1);
  });
});

describe("hot reload", () => {
  it("watches the files a rule file extends, and a file newly extended", async () => {
    const dir = tree({
      "base.yaml": "name: base\nrules:\n  - { id: one, match: { tool: one }, decision: deny }\n",
      "other.yaml": "name: other\nrules:\n  - { id: three, match: { tool: three }, decision: deny }\n",
      "sub/mine.yaml": "name: mine\nextends: ../base.yaml\n",
    });
    const mine = join(dir, "sub", "mine.yaml");
    const first = load(mine);
    const reloads: LoadedRules[] = [];
    let notify: () => void = () => {};
    const stop = watchRules([mine], first.files, (l) => {
      reloads.push(l);
      notify();
    }, 20);
    // Resolves when a reload brings exactly these rules: an editor's write can fire several events.
    const next = (edit: () => void, ids: string[]) =>
      new Promise<string[]>((res) => {
        notify = () => {
          const got = reloads.at(-1)?.ruleSet?.rules.map((r) => r.id);
          if (got && got.join() === ids.join()) res(got);
        };
        edit();
      });
    try {
      const base = join(dir, "base.yaml");
      expect(await next(() => writeFileSync(base, `${readFileSync(base, "utf8")}  - { id: two, match: { tool: two }, decision: deny }\n`), ["one", "two"])).toEqual(["one", "two"]);
      expect(await next(() => writeFileSync(mine, "name: mine\nextends: [../base.yaml, ../other.yaml]\n"), ["one", "two", "three"])).toHaveLength(3);
      const other = "name: other\nrules:\n  - { id: four, match: { tool: four }, decision: deny }\n";
      expect(await next(() => writeFileSync(join(dir, "other.yaml"), other), ["one", "two", "four"])).toHaveLength(3);
    } finally {
      stop();
    }
  }, 30_000);
});
