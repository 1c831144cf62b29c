import { describe, expect, it } from "vitest";
import { cpuMs } from "../support/cpu.js";
import { ownTreeConfigRead } from "../../src/guardian/detectors/paths-configs.js";
import { passwordSpansInWords } from "../../src/guardian/detectors/exfil-words.js";
import { detectLabelledSecrets, labelledSecrets } from "../../src/guardian/detectors/secrets-labelled.js";
import { detectNamedField } from "../../src/guardian/detectors/secrets-context.js";
import type { Detection } from "../../src/guardian/detectors/scan.js";
import { detectShapedCredentials } from "../../src/guardian/detectors/secrets-shapes.js";

/* Twentieth round (issue 24, "sec20"): secrets by principle. */

const spans = (t: string) => labelledSecrets(t).map((s) => t.slice(s.start, s.end));

describe("a production configuration read inside the project's own tree (paths-configs.ts)", () => {
  it("lets a relative read through, to be judged on the way back", () => {
    for (const p of ["config/production.json", "services/a/src/main/resources/application-prod.yml", "site/settings.prod.toml", "deploy/app.prod.yaml"]) expect(ownTreeConfigRead(p), p).toBe(true);
  });
  it("keeps a deployed server's file, a climb, a drive, a URI and a file named for its secrets refused", () => {
    for (const p of ["/srv/x/config/production.yml", "../../x/config.prod.json", "a/../../config/production.json", "E:\\S\\appsettings.Production.json", "~/app/config/production.json", "https://h/config/production.json", "deploy/secrets.production.yaml", "credentials-prod.json", "config.prod.env", "a%2e%2e/config/production.json"]) expect(ownTreeConfigRead(p), p).toBe(false);
  });
  it("stays fast on a long path", () => {
    const t = cpuMs();
    ownTreeConfigRead("a/".repeat(2000) + "config/production.json");
    ownTreeConfigRead("../".repeat(1300) + "x");
    expect(cpuMs() - t).toBeLessThan(50);
  });
});

describe("a password given by its word in any language (exfil-words.ts, secrets-labelled.ts)", () => {
  it("cuts the value after the word", () => {
    expect(spans("Konto: recepcja, hasło: Silownia#2027x, dzięki")).toEqual(["Silownia#2027x"]);
    expect(spans("kullanıcı ege, şifre Otel2026!kapi")).toEqual(["Otel2026!kapi"]);
    expect(spans("后台账号 admin，密码 Shop@2026mall，今晚")).toEqual(["Shop@2026mall"]);
    expect(spans("логин dom17, пароль Kvartal#2026z")).toEqual(["Kvartal#2026z"]);
  });
  it("passes a policy, a reset notice, a form's label", () => {
    for (const t of ["Nowe hasło musi mieć co najmniej 12 znaków", "Sua senha foi redefinida com sucesso.", "비밀번호는 8자 이상이어야 합니다", "Passwort vergessen? Link anklicken", "Le mot de passe a été changé le 12/03."]) expect(spans(t), t).toEqual([]);
  });
  it("stays fast on a long adversarial text", () => {
    const t = cpuMs();
    passwordSpansInWords("hasło ".repeat(12000));
    labelledSecrets("пароль: a1".repeat(6000));
    expect(cpuMs() - t).toBeLessThan(500);
  });
});

describe("a page written with a browser key keeps its exemption in every layer (secrets-labelled.ts)", () => {
  const message = (args: Record<string, string>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "write_file", arguments: args } });
  it("leaves a file write out even when the sites given are a decoded view without the path", () => {
    const m = message({ path: "public/map.html", content: "x" });
    expect(detectLabelledSecrets([{ path: ["params", "arguments", "content"], value: "accessToken: Zq8#mK2pL9xR4tW7" }], m)).toEqual([]);
  });
  it("still reads a message sent to people", () => {
    const m = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "send_email", arguments: { to: "a@b.example", body: "x" } } };
    expect(detectLabelledSecrets([{ path: ["params", "arguments", "body"], value: "the api key: Zq8#mK2pL9xR4tW7vB" }], m).length).toBe(1);
  });
});

describe("a password field by its short name (secrets-context.ts)", () => {
  const field = (key: string, value: string) => {
    const found: Detection[] = [];
    detectNamedField({ path: ["result", "parts", 0, "data", key], value }, found);
    return found.length;
  };
  it("finds smtp_pass, DB_PASS, mailPass with a chosen or random value", () => {
    for (const [k, v] of [["smtp_pass", "Gl0ss#Matte2026"], ["DB_PASS", "Tr4m!Depot#61"], ["mailPass", "4b1f0c9e7d2a8f3b6c5e1d0a9b8c7f6e-1a2b3c4d"], ["rtspPass", "Cam#Lobby2026x"]] as const) expect(field(k, v), k).toBe(1);
  });
  it("passes tickets and steps named pass, a bare pass, placeholders", () => {
    for (const [k, v] of [["boarding_pass", "BP-2026-LX4471z"], ["first_pass", "Inline2-complete"], ["day_pass", "SKI-2026-0117-Q4"], ["pass", "2026-332T04:10Z"], ["smtp_pass", "changeme"], ["db_pass", "${DB_PASSWORD}"]] as const) expect(field(k, v), k).toBe(0);
  });
  it("stays fast on a long value", () => {
    const t = cpuMs();
    field("smtp_pass", "A1!".repeat(20000));
    expect(cpuMs() - t).toBeLessThan(200);
  });
});

describe("a key that says of itself it is a live secret (secrets-shapes.ts), an access token's label in Romance languages", () => {
  const shaped = (value: string) => {
    const found: Detection[] = [];
    detectShapedCredentials({ path: ["x"], value }, found);
    return found.map((d) => value.slice(d.start, d.end));
  };
  it("finds live_sk_, sk_prod_, secret_live_ with a random run", () => {
    expect(shaped("Schlüssel: live_sk_T4nG9qWm2ZxR7pLc5VbN8kYd3HsJ")).toEqual(["live_sk_T4nG9qWm2ZxR7pLc5VbN8kYd3HsJ"]);
    expect(shaped("clave sk_prod_9hKq2LmX7vB4nR8tZ1cW6yF3pD5sGj.")).toEqual(["sk_prod_9hKq2LmX7vB4nR8tZ1cW6yF3pD5sGj"]);
  });
  it("passes test keys, variable names and words", () => {
    for (const t of ["test_sk_T4nG9qWm2ZxR7pLc5VbN8kYd3HsJ", "rotate LIVE_SK_PAYMENTS_WEBHOOK_SECRET_NAME", "prod_secret_rotation_job_runs_weekly_now"]) expect(shaped(t), t).toEqual([]);
  });
  it("reads a token's label in French, Spanish, Italian", () => {
    expect(spans("le jeton d'accès : Hq8Zt3LmV6pW1xRk9NcB4yDf7Gs2Qe5")).toEqual(["Hq8Zt3LmV6pW1xRk9NcB4yDf7Gs2Qe5"]);
    expect(spans("usa il token di accesso Vn3Kp8Rz6Qw1Tm9Lx4Hc7By2Gd5Fs0J.")).toEqual(["Vn3Kp8Rz6Qw1Tm9Lx4Hc7By2Gd5Fs0J"]);
    expect(spans("El token de acceso caducó el 03/02; hay que regenerarlo.")).toEqual([]);
  });
  it("stays fast on a long adversarial text", () => {
    const t = cpuMs();
    shaped("live_sk_".repeat(8000));
    spans("jeton d'accès ".repeat(4000));
    expect(cpuMs() - t).toBeLessThan(500);
  });
});
