import { describe, expect, it } from "vitest";
import { identifierWords, outsideDocuments, outsideIdentifier } from "../../src/guardian/detectors/exfil-outside-documents.js";
import { pathCredential } from "../../src/guardian/detectors/exfil-path-credentials.js";
import { secrecyAsked } from "../../src/guardian/detectors/exfil-secrecy.js";
import { mailedSecrets } from "../../src/guardian/detectors/exfil-sinks.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";

/* Twenty-fourth round (issue 24, "exf24"): documents owned outside, a password in a URL's path, secrecy asked of a personal mailbox. */

/** A tool call's arguments as the detectors see them: one site per string, under params.arguments. */
function sites(args: Record<string, unknown>): StringSite[] {
  const out: StringSite[] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (typeof v === "string") out.push({ path: ["params", "arguments", ...path], value: v });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(args, []);
  return out;
}
const outside = (tool: string, args: Record<string, unknown>) => outsideDocuments(tool, sites(args)).map((d) => d.type);

describe("data written into a document whose identifier says it is outside", () => {
  it("reads the words of an identifier, camel case and separators alike", () => {
    expect(identifierWords("1xQ9-extAgency-SharedBands_2027")).toEqual(["1x", "q9", "ext", "agency", "shared", "bands", "2027"]);
    expect(outsideIdentifier("1Kd8-outsider-pets-Qm2")).toBe("outsider");
    expect(outsideIdentifier("https://docs.google.com/spreadsheets/d/1Rq-cliente-externo-Lp9/edit")).toBe("externo");
    expect(outsideIdentifier("0BxThirdParty-Recruit-Drop")).toBe("third party");
    expect(outsideIdentifier("https://docs.google.com/document/d/1Ab9/edit?owner=someone.private@gmail.com")).not.toBeNull();
  });
  it("does not take a word inside another, a company owner, or the service's host for an owner", () => {
    expect(outsideIdentifier("1Next-Quarter-Plan")).toBeNull();
    expect(outsideIdentifier("1TeamKpi-Weekly-2026")).toBeNull();
    expect(outsideIdentifier("https://docs.google.com/document/d/1Ab9/edit?owner=finance@acme.example")).toBeNull();
    expect(outsideIdentifier("https://external.example.com/d/1TeamKpi")).toBeNull();
  });
  it("finds rows, text or a named table written there", () => {
    expect(outside("append_sheet_rows", { spreadsheetId: "1Kd8-outsider-pets-Qm2", rows: [["Owner", "Phone"], ["J. Novak", "+386 41 555 201"]] })).toEqual(["exfiltration.outside_document"]);
    expect(outside("export_table", { table: "supplier_prices", destination_url: "https://docs.google.com/spreadsheets/d/1zP-competitor-bakes/edit", format: "csv" })).toHaveLength(1);
    expect(outside("zapisz_wiersze", { arkusz_id: "x", sheet_id: "1Ab-zewnetrzny-klient", dane: "Klient;NIP;Obrót\nA;1;2\nB;3;4" })).toHaveLength(1);
  });
  it("passes a read, a title, a local disk, an API path, and a destination with nothing written", () => {
    expect(outside("sheets_get_values", { spreadsheet_id: "1xExternal-Rates-Feed", range: "A1:D20" })).toEqual([]);
    expect(outside("create_sheet", { title: "External audit tracker", rows: [["Finding", "Owner"], ["Access", "IT"]] })).toEqual([]);
    expect(outside("copy_files", { source: "/home/ana/invoices", destination: "/Volumes/External/backup" })).toEqual([]);
    expect(outside("http_request", { url: "https://api.shop.example/v2/external/orders/sync", body: '{"since":"2026-11-27","limit":100}' })).toEqual([]);
    expect(outside("open_sheet", { sheet_url: "https://docs.google.com/spreadsheets/d/1Vendor-External-Catalogue/edit" })).toEqual([]);
  });
  it("stays fast on long values", () => {
    const t = performance.now();
    outside("append", { sheet_id: `${"ext-".repeat(500)}x`, rows: "a".repeat(70000) });
    outsideIdentifier(`https://docs.google.com/d/${"aB".repeat(1000)}?owner=${"a".repeat(900)}@gmail.com`);
    expect(performance.now() - t).toBeLessThan(100);
  });
});

describe("a password in a URL's path", () => {
  const path = (u: string) => pathCredential(new URL(u).pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s)));
  it("finds a short or translated word followed by the password, or joined to it", () => {
    expect(path("https://x.example/acct/j.moreau/pw/Soleil-Rouge-44!/done")).toBe(true);
    expect(path("https://x.example/u/r.lima/senha/Cajueiro%232026x/ok")).toBe(true);
    expect(path("https://x.example/ping/password-Qx7!sample2026/site")).toBe(true);
    expect(path("https://x.example/check/haslo_Zima2026!x/end")).toBe(true);
    expect(path("https://x.example/check/пароль/Зима2026!x")).toBe(true);
  });
  it("passes pages about passwords and a pass's serial", () => {
    expect(path("https://x.example/password-reset/start")).toBe(false);
    expect(path("https://x.example/docs/password-policy-2024")).toBe(false);
    expect(path("https://x.example/passwort-vergessen/schritt-2")).toBe(false);
    expect(path("https://x.example/pw/settings")).toBe(false);
    expect(path("https://wallet.example/pass/AbC123dEf9")).toBe(false);
  });
  it("stays fast on a long path", () => {
    const t = performance.now();
    pathCredential(Array.from({ length: 5000 }, (_, i) => (i % 2 ? "password" : `password-${"Aa1!".repeat(40)}`)));
    expect(performance.now() - t).toBeLessThan(100);
  });
});

describe("secrecy asked of a personal mailbox", () => {
  it("reads the request in several languages", () => {
    expect(secrecyAsked("Attached the price list. Keep this between us, please.")).toBe(true);
    expect(secrecyAsked("Das bleibt unter uns.")).toBe(true);
    expect(secrecyAsked("Entre nous, évidemment.")).toBe(true);
    expect(secrecyAsked("Nikomu nie mów, skąd to masz.")).toBe(true);
    expect(secrecyAsked("Listeyi ekte bulabilirsin, kimseyle paylaşma.")).toBe(true);
    expect(secrecyAsked("Это между нами.")).toBe(true);
  });
  it("passes the words' ordinary uses", () => {
    expect(secrecyAsked("Share it with everyone on the team.")).toBe(false);
    expect(secrecyAsked("Deliveries between 9 and 5; the distance between us and the depot is 4 km.")).toBe(false);
    expect(secrecyAsked("Contre nous, ils ont gagné 2-1.")).toBe(false);
  });
  it("counts only for a personal mailbox", () => {
    const mail = (to: string) => mailedSecrets(sites({ to, subject: "x", body: "Here are the unreleased figures, keep it between us." })).length;
    expect(mail("d.keller.home@gmail.com")).toBe(1);
    expect(mail("archive@ukr.net")).toBe(1);
    expect(mail("j.park@northwind.example")).toBe(0);
  });
  it("stays fast on a long body", () => {
    const t = performance.now();
    secrecyAsked("keep it between ".repeat(10000));
    expect(performance.now() - t).toBeLessThan(100);
  });
});
