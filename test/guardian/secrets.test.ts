import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript shared with bench/secretlint-compare.mjs
import { secretSamples } from "../../bench/secret-samples.mjs";
import { compileDetector, MessageScan } from "../../src/guardian/detectors/index.js";
import { detectSecrets } from "../../src/guardian/detectors/secrets.js";

type Sample = { name: string; type: string; text: string; secret: string };
const { secrets, benign } = secretSamples() as { secrets: Sample[]; benign: { name: string; text: string }[] };
const site = (value: string) => [{ path: ["result", "text"], value }];
const found = (value: string) => detectSecrets(site(value)).map((d) => `${d.type} ${value.slice(d.start, d.end)}`);

describe("secrets: every format, exact spans", () => {
  for (const s of secrets) {
    it(s.name, () => {
      expect(found(s.text)).toContain(`${s.type} ${s.secret}`);
      // The same inside a long string (the rare-character search) and as one of several strings.
      const filler = "Lorem ipsum dolor sit amet, some_snake_case and kebab-case words, https://example.com/a?b=1.\n".repeat(60);
      expect(found(filler + s.text + "\n" + filler).map((f) => f.split(" ")[0])).toContain(s.type);
    });
  }

  it("the password of a connection string is cut where it is, not where its text first occurs", () => {
    const v = "postgres://Xk9q2LmP7rT:Xk9q2LmP7rT@db/x";
    const [d] = detectSecrets(site(v));
    expect(d).toMatchObject({ type: "secrets.connection_string", start: 23, end: 34 });
  });

  it("a GitHub token used as a URL's user (token:x-oauth-basic) is found, the password part is not", () => {
    const t = "ghs_" + "k3Jq9Zx2".repeat(4) + "Ab12";
    expect(found(`https://${t}:x-oauth-basic@github.com/acme/api.git`)).toEqual([`secrets.github_token ${t}`]);
  });
});

describe("secrets: benign look-alikes are not findings", () => {
  for (const b of benign) it(b.name, () => expect(found(b.text)).toEqual([]));

  it("well-known default passwords in local compose files are not secrets (docs/detection.md)", () => {
    for (const v of ["postgres://postgres:postgres@db:5432/app", "amqp://guest:guest@rabbitmq:5672/", "mysql://root:root@mysql:3306/app", "redis://:foobared@cache:6379", "mongodb://admin:admin@mongo:27017"]) {
      expect(found(v), v).toEqual([]);
    }
  });
});

describe("secrets: the shortcuts find exactly what a full search finds", () => {
  it("short strings (literal by literal), long strings (by rare character), several strings", () => {
    const all = [...secrets.map((s) => s.text), ...benign.map((b) => b.text)];
    for (const v of all) {
      for (const value of [v, v.repeat(40)]) expect(detectSecrets(site(value))).toEqual(detectSecrets(site(value), false));
    }
    const sites = all.slice(0, 8).map((value, i) => ({ path: ["params", "arguments", `a${i}`], value }));
    expect(detectSecrets(sites)).toEqual(detectSecrets(sites, false));
  });

  it("pathological input ends (every pattern bounded, no nested unbounded quantifiers)", () => {
    for (const v of [
      "-----BEGIN PRIVATE KEY-----\n" + "A".repeat(200_000),
      "-----BEGIN RSA PRIVATE KEY-----".repeat(5_000),
      "eyJ".repeat(60_000),
      "eyJhbGciOiJIUzI1NiJ9." + "eyJ".repeat(50_000),
      "x://a:b@".repeat(30_000),
      "://" + ":".repeat(100_000) + "@",
      "ghp_".repeat(50_000),
      "Q~".repeat(80_000),
      "1234567890:AA".repeat(20_000),
      "_authToken=".repeat(20_000),
    ]) {
      expect(Array.isArray(detectSecrets(site(v)))).toBe(true);
    }
  });
});

describe("text file parts are read decoded", () => {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const stripe = "sk_live_" + "9xQ2LmP7rT4vK8".repeat(3);
  const env = `NODE_ENV=production\nSTRIPE_KEY=${stripe}\nDATABASE_URL=postgres://app:Zr8vQ2LmP7xT4k@db.prod:5432/app\n`;
  const run = (message: Record<string, unknown>) => {
    const d = compileDetector("secrets");
    if (typeof d === "string") throw new Error(d);
    return new MessageScan(message, "srv", null).run(d);
  };

  it("an A2A 0.3 file part with a .env: the findings stand for the whole encoded payload", () => {
    const bytes = b64(env);
    const msg = { jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { role: "user", parts: [{ kind: "file", file: { name: ".env", bytes } }] } } };
    const found = run(msg);
    expect(found.map((d) => d.type).sort()).toEqual(["secrets.connection_string", "secrets.stripe_key"]);
    for (const d of found) expect(d).toMatchObject({ path: ["params", "message", "parts", 0, "file", "bytes"], start: 0, end: bytes.length });
  });

  it("A2A 1.0 raw parts and MCP blob resources too; images and archives are not decoded", () => {
    expect(run({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { parts: [{ raw: b64(env), filename: "prod.env", mediaType: "application/octet-stream" }] } } })).toHaveLength(2);
    expect(run({ jsonrpc: "2.0", id: 1, result: { contents: [{ uri: "file:///app/.env", mimeType: "application/octet-stream", blob: b64(env) }] } })).toHaveLength(2);
    // The same bytes declared as a PNG are skipped (a client would not read them as text); a real PNG too.
    expect(run({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "image", mimeType: "image/png", data: b64(env) }] } })).toEqual([]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(env)]).toString("base64");
    expect(run({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { parts: [{ kind: "file", file: { bytes: png } }] } } })).toEqual([]);
  });
});
