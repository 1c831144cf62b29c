import { describe, expect, it } from "vitest";
import { ownTreeConfigRead } from "../../src/guardian/detectors/paths-configs.js";
import { passwordSpansInWords } from "../../src/guardian/detectors/exfil-words.js";
import { detectLabelledSecrets, labelledSecrets } from "../../src/guardian/detectors/secrets-labelled.js";

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
    const t = performance.now();
    ownTreeConfigRead("a/".repeat(2000) + "config/production.json");
    ownTreeConfigRead("../".repeat(1300) + "x");
    expect(performance.now() - t).toBeLessThan(50);
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
    const t = performance.now();
    passwordSpansInWords("hasło ".repeat(12000));
    labelledSecrets("пароль: a1".repeat(6000));
    expect(performance.now() - t).toBeLessThan(500);
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
