import { describe, expect, it } from "vitest";
import { cedulaEc, checkedIdentity, egyptNid, ibanValid, rodneCislo, svnrAt, tajHu } from "../../src/guardian/detectors/pii-checks.js";
import { detectWrappedValues } from "../../src/guardian/detectors/secrets-wrapped.js";
import { detectSecrets } from "../../src/guardian/detectors/secrets.js";
import { sensitiveKind } from "../../src/guardian/detectors/paths.js";
import type { Detection } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

describe("national checks (ninth round)", () => {
  it("accept numbers that pass and refuse a changed digit", () => {
    for (const [f, good] of [[cedulaEc, "1204150203"], [rodneCislo, "6662100588"], [svnrAt, "2287280765"], [tajHu, "816233869"], [egyptNid, "28502130168504"]] as const) {
      expect(f(good), good).toBe(true);
      const bad = good.slice(0, -1) + String((Number(good.at(-1)) + 1) % 10);
      if (f !== egyptNid) expect(f(bad), bad).toBe(false);
    }
    expect(ibanValid("PL71441837738774827323676828")).toBe(true);
    expect(ibanValid("PL71441837738774827323676829")).toBe(false);
    expect(checkedIdentity("0000000000")).toBe(false);
    expect(checkedIdentity("816233869")).toBe(false); // TAJ's check is too weak to count unnamed
  });
});

describe("secrets a wrapper holds (ninth round)", () => {
  const run = (value: string) => {
    const out: Detection[] = [];
    detectWrappedValues({ path: ["t"], value }, out);
    return out.map((d) => value.slice(d.start, d.end));
  };
  it("finds terraform's and SSM's values by their names, not ids or public values", () => {
    expect(run('{"db_password": {"sensitive": true, "value": "q7Vt2LmZx9RcW4kPsB8n"}}')).toEqual(["q7Vt2LmZx9RcW4kPsB8n"]);
    expect(run('{"Parameter": {"Name": "/prod/api_token", "Value": "rk9XbT4qLm2VnP7sWc3Yd8Fh"}}')).toEqual(["rk9XbT4qLm2VnP7sWc3Yd8Fh"]);
    expect(run('{"signing_key_id": {"value": "mrk-1a2b3c4d5e6f7a8b9c0d"}, "region": {"value": "eu-central-1x"}}')).toEqual([]);
    expect(run('{"db_password": {"sensitive": true, "value": "<sensitive>"}}')).toEqual([]);
  });
  it("stays linear on long adversarial text", () => {
    const long = '{"a_token": {' + ' "x": "y",'.repeat(50_000) + '"value": "' + "a".repeat(2000) + '"'.repeat(1);
    const t0 = cpuMs();
    run(long);
    run('"value": "abcdefghijkl" '.repeat(40_000));
    expect(cpuMs() - t0).toBeLessThan(500);
  });
  it("finds an X bearer token pasted bare, not a placeholder or a base64 blob", () => {
    const tok = "AAAAAAAAAAAAAAAAAAAAAK7qPw0AAAAAr4Tn2xQv%2FmB8kL1sYdZcWfE9pJ3%3Dh6RtQ0uXbN2yVa8MkE1oLs4CgT7wPz9DfH5jUi3nKx";
    expect(detectSecrets([{ path: ["t"], value: `bearer: ${tok}` }]).map((d) => d.type)).toContain("secrets.x_bearer_token");
    expect(detectSecrets([{ path: ["t"], value: "Bearer AAAAAAAAAAAAAAAAAAAAA%2FYOUR_TOKEN_HERE" }])).toEqual([]);
    expect(detectSecrets([{ path: ["t"], value: "AAAAAAAAAAAAAAAAAAAAAAAANUlEQVR42mNk+M9Qz0AEYBxVSF+FAAhKDveksOjmAAAAAElFTkSuQmCC%3D%3D" }])).toEqual([]);
  });
});

describe("apps' session stores (ninth round)", () => {
  it("are sensitive; the apps' settings are not", () => {
    for (const p of ["~/.config/Signal/config.json", "~/.config/Slack/Cookies", "~/.config/discord/Local Storage/leveldb/000003.log", "/home/k/.aws/sso/cache/", "/etc/NetworkManager/system-connections/", "~/.config/Code/User/globalStorage/state.vscdb", "~/.thunderbird/a.default-release/logins.json"])
      expect(sensitiveKind(p), p).not.toBeNull();
    for (const p of ["~/.config/Code/User/settings.json", "/home/k/src/app/.vscode/settings.json", "~/.thunderbird/profiles.ini", "/etc/NetworkManager/NetworkManager.conf", "~/.config/Slack/logs"])
      expect(sensitiveKind(p), p).toBeNull();
  });
});
