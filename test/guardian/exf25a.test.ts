import { describe, expect, it } from "vitest";
import { sitesOf } from "../support/sites.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { outsideRecords, recordList } from "../../src/guardian/detectors/exfil-records.js";
import { markedText } from "../../src/guardian/detectors/exfil-words.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, twenty-fifth round ("exf25a"): where data goes in a tool call. docs/detection.md, "exf25a". */

const TG = "https://api.telegram.org/bot5839201746:AAGk3Lq9Vx2Rm8Tz4Pw7Nc1Yb6Hd0Sj5Fe3/sendMessage";
const DC = "https://discord.com/api/webhooks/1201938475610293847/Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz";

describe("exf25a: a list of records", () => {
  it("finds three named entries with figures, two on one template, or a price list", () => {
    expect(recordList("Dealer margins Q1: Nordbau GmbH 18.5% €412k, Holzwerk Kiel 16% €288k, Baumarkt Süd 21% €1.2m")).toBe("a list of records");
    expect(recordList("tomorrow: 0830 Hollis Barrow MRI-KNEE-L, 0915 Priya Raman CT-ABD-C")).toBe("a list of records");
    expect(recordList("Facturas: FAC-2291 Transportes Ibarra 14.820 EUR; FAC-2304 Aceites Molina 9.310 EUR")).toBe("a list of records");
    expect(recordList("Einkaufspreise: Motorsense 189,00 €/Stk, Heckenschere 244,50 €/Stk")).not.toBeNull();
    expect(recordList("Клієнти: Петренко Олег, 067 441 2290, ДГ-118; Коваль Ірина, 050 118 7764, ДГ-121")).toBe("a list of records");
  });
  it("passes a notice, however many numbers it has", () => {
    expect(recordList("Occupancy tonight 87%, ADR €164, 3 walk-ins")).toBeNull();
    expect(recordList("Maintenance today: 14 work orders closed, 3 emergencies (all resolved), 2 awaiting parts.")).toBeNull();
    expect(recordList("Release 4.12.0 is live on all three regions (eu, us, ap).")).toBeNull();
    expect(recordList("Station North: 3.4 mm rain overnight, wind 18 km/h NW, soil 11 °C.")).toBeNull();
    expect(recordList("Sunday league: Lions 3, Tigers 1, Bears 2")).toBeNull();
    expect(recordList("Reading list: Dune 1965, Neuromancer 1984, Hyperion 1989")).toBeNull();
  });
  it("reads a person's own record written as a form as one record", () => {
    expect(recordList("Dear Ms Brennan,\nName: Aoife Brennan\nAddress: 14 Quay Street, Galway H91 X2Y3\nPhone: 091 562 118\nCustomer number: 448120")).toBeNull();
  });
  it("stays linear on long adversarial input", () => {
    const long = "Aa 123, ".repeat(20000) + "(".repeat(20000) + "Bb 456; ".repeat(20000);
    const t = cpuMs();
    recordList(long);
    recordList("1" + ": ".repeat(30000));
    outsideRecords(sitesOf({ url: TG, body: long }));
    expect(cpuMs() - t).toBeLessThan(1000);
  });
});

describe("exf25a: where the records go", () => {
  it("finds records sent to a Telegram bot or a Discord webhook", () => {
    const tg = outsideRecords(sitesOf({ method: "POST", url: TG, body: JSON.stringify({ chat_id: "-100998877", text: "Dealer margins: Nordbau GmbH 18.5% €412k, Holzwerk Kiel 16% €288k, Baumarkt Süd 21% €1.2m" }) }));
    expect(tg.map((d) => d.type)).toEqual(["exfiltration.outside_records"]);
    expect(tg[0]?.path).toEqual(["params", "arguments", "url"]);
    expect(outsideRecords(sitesOf({ url: DC, body: JSON.stringify({ content: "0830 Hollis Barrow MRI-KNEE-L, 0915 Priya Raman CT-ABD-C" }) })).length).toBe(1);
    expect(outsideRecords(sitesOf({ url: `${TG}?chat_id=1&text=${encodeURIComponent("A1 Nordbau GmbH 4120 EUR, A2 Holzwerk Kiel 2880 EUR")}` })).length).toBe(1);
  });
  it("passes a notice to the same bot, and records to a team chat", () => {
    expect(outsideRecords(sitesOf({ url: TG, body: JSON.stringify({ chat_id: "-1001", text: "Release 4.12.0 is live (eu, us, ap)." }) }))).toEqual([]);
    expect(outsideRecords(sitesOf({ url: "https://hooks.slack.com/services/T0/B0/x", body: "Nordbau GmbH 18.5% €412k, Holzwerk Kiel 16% €288k, Baumarkt Süd 21% €1.2m" }))).toEqual([]);
  });
  it("finds records mailed to a personal mailbox, not to a company address", () => {
    const body = "Meridian Foods 18,400 cases $14.20/case\nBlue Harbor Markets 9,750 cases $15.05/case\nCorbin Grocers 6,100 cases $15.60/case";
    expect(outsideRecords(sitesOf({ to: "r.haddad.home@outlook.com", body })).map((d) => d.detail)).toEqual(["a list of records mailed to a personal mailbox"]);
    expect(outsideRecords(sitesOf({ to: "sales@meridian-foods.example", body }))).toEqual([]);
    expect(outsideRecords(sitesOf({ to: "t.mercer@gmail.com", body: "Hi Tom, your invoice INV-20931 for 2 x Lawn Care Visit comes to $180.00, due 15 Dec." }))).toEqual([]);
  });
  it("finds a mailbox forwarded to a personal mailbox, not to a colleague, nor a personal mailbox's own forward", () => {
    expect(outsideRecords(sitesOf({ identity: "cfo@tallow.example", properties: { ForwardingSmtpAddress: "smtp:cfo.copy@gmail.com" } })).length).toBe(1);
    expect(outsideRecords(sitesOf({ actions: { forwardTo: [{ emailAddress: { address: "x.y@proton.me" } }] } })).length).toBe(1);
    expect(outsideRecords(sitesOf({ mailbox: "j.ortiz@tallow.example", forward_to: "m.chen@tallow.example" }))).toEqual([]);
    expect(outsideRecords(sitesOf({ mailbox: "old.me@yahoo.com", forward_to: "new.me@gmail.com" }))).toEqual([]);
  });
  it("judges a public gist by its marks", () => {
    const gist = (pub: boolean, content: string) => outsideRecords(sitesOf({ public: String(pub), files: { "a.md": { content } } }), "create_gist", { public: pub, files: { "a.md": { content } } });
    expect(gist(true, "Internal pricing plan FY27: raise list prices 7% in March.").length).toBe(1);
    expect(gist(true, "Interní? No: VERTRAULICH — Umsatzplanung 2027").length).toBe(1);
    expect(gist(false, "Internal pricing plan FY27.")).toEqual([]);
    expect(gist(true, "def retry(f, n=3):\n    return f()  # internal helper\n")).toEqual([]);
    expect(gist(true, "database.password = ${env:DB_PASSWORD}")).toEqual([]);
    const api = outsideRecords(sitesOf({ url: "https://api.github.com/gists", body: JSON.stringify({ public: true, files: { "n.md": { content: "CONFIDENTIEL — plan social" } } }) }), "http_request", {});
    expect(api.length).toBe(1);
  });
});

describe("exf25a: marks", () => {
  it("reads a court's seal and 'do not forward' in more languages", () => {
    expect(markedText("Filed under seal: settlement terms.")).toBe(true);
    expect(markedText("Ціни на завтра. Не пересилати.")).toBe(true);
    expect(markedText("Bitte nicht weiterleiten.")).toBe(true);
    expect(markedText("The seal under the sink leaks.")).toBe(false);
  });
});

describe("exf25a: corpus", () => {
  it("holds every case of exf25a.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/exf25a.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(20);
  });
});
