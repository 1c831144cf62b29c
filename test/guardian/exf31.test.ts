import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { agentRecords } from "../../src/guardian/detectors/pii-agent-records.js";
import { detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { sitesOf } from "../support/sites.js";
import { cpuMs } from "../support/cpu.js";
import { asciiDigits, otherDigit } from "../../src/guardian/detectors/digits.js";
import { asciiDigits as bulkDigits } from "../../src/guardian/detectors/exfil-personal-bulk.js";
import { detectPeopleRows } from "../../src/guardian/detectors/pii-rows.js";

/* Issue 24, round exf31: people's records handed to another agent (pii-agent-records.ts), the own-agent label of the
   balanced pack, and special-category lists naming people by a title or a table's first cell (pii-special.ts).
   docs/detection.md, "exf31". */

/** The sites of an A2A message's parts, as the scanner lists them (a file part's bytes given decoded). */
function partSites(parts: unknown[]): StringSite[] {
  const out: StringSite[] = [];
  const walk = (x: unknown, p: (string | number)[]) => {
    if (typeof x === "string") out.push({ path: p, value: x });
    else if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...p, i]));
    else if (x !== null && typeof x === "object") for (const [k, y] of Object.entries(x)) walk(y, [...p, k]);
  };
  walk(parts, ["params", "message", "parts"]);
  return out;
}
const text = (t: string) => partSites([{ kind: "text", text: t }]);
const types = (sites: StringSite[]) => agentRecords(sites).map((d) => d.type);

describe("exf31: people's records handed to another agent", () => {
  it("finds home addresses beside names, in English, German, Polish and Portuguese street forms", () => {
    expect(types(text("ref,occupant,home,due\nL-1,Martha Greenwood,17 Willow Crescent BD9,640\nL-2,Tomasz Wrobel,3 Moor Lane BD7,0\nL-3,Aisha Rahman,58 Heaton Road BD8,1280"))).toEqual(["pii_bulk.agent_records"]);
    expect(types(text("Mieter;Anschrift;Rückstand\nHerr Braun;Lindenweg 4;420\nFrau Yilmaz;Amselstraße 12;0\nHerr Kowalczyk;Birkenallee 7;1130"))).toEqual(["pii_bulk.agent_records"]);
    expect(types(text("Zaległości:\nJan Nowak, ul. Polna 7, 300 zł\nAnna Wiśniewska, ul. Leśna 12, 0 zł\nPiotr Zieliński, ul. Długa 3, 950 zł"))).toEqual(["pii_bulk.agent_records"]);
    expect(types(text("Clientes:\nInês Carvalho, Rua das Flores 28, 120€\nRui Tavares, Rua Augusta 104, 0€\nMarta Sousa, Avenida Liberdade 9, 75€"))).toEqual(["pii_bulk.agent_records"]);
  });
  it("finds bank accounts beside initials and titles, one line of `;`-entries", () => {
    expect(types(text("S-1 T. Okonjo 40-11-62/21948811 £2,300; S-2 R. Fairley 30-90-45/77120934 £950; S-3 M. Duarte 20-32-06/10457728 £4,100"))).toEqual(["pii_bulk.agent_records"]);
    // IBANs with a valid check (the public example IBANs of three countries).
    expect(types(text("Payees:\nMrs Vogt, DE89 3704 0044 0532 0130 00\nMr Dupont, FR14 2004 1010 0505 0001 3M02 606\nMs Janssen, NL91 ABNA 0417 1643 00"))).toEqual(["pii_bulk.agent_records"]);
  });
  it("finds rows whose only identity is a personal mailbox, in a data part and in a file's rows", () => {
    const donors = [
      { ref: "D-0192", mail: "bea.holm77@gmail.com", total: "1250" },
      { ref: "D-0230", mail: "k.ferreira@hotmail.com", total: "800" },
      { ref: "D-0311", mail: "olu.adeyemi@yahoo.co.uk", total: "2175" },
    ];
    expect(types(partSites([{ kind: "text", text: "Audience seed." }, { kind: "data", data: { donors } }]))).toEqual(["pii_bulk.agent_records"]);
    expect(types(text("id,email,country,spend\nP-1,bea.holm77@gmail.com,SE,120.50\nP-2,k.ferreira@hotmail.com,PT,88.00\nP-3,olu.adeyemi@yahoo.co.uk,GB,310.25"))).toEqual(["pii_bulk.agent_records"]);
  });
  it("leaves one person, a couple, businesses, places, names without a private field and mail headers alone", () => {
    expect(types(text("Deliver to Martha Greenwood, 17 Willow Crescent, Bradford BD9 4AA, after 5pm."))).toEqual([]);
    expect(types(text("Book for two: Ana Ruiz +34 600 123 456; Luis Ruiz +34 600 987 654."))).toEqual([]);
    expect(types(text("Leads:\nJonas Berg, Nordic Pack AB, jonas.berg@nordicpack.example\nMette Holm, Baltic Foods, mette@balticfoods.example\nPiet Smit, Smit Logistics BV, piet@smitlog.example"))).toEqual([]);
    expect(types(text("Route:\nLeeds Central, 12 Park Row\nHeadingley Store, 9 Otley Road\nKirkstall Branch, 30 Commercial Road"))).toEqual([]);
    expect(types(text("Seating:\nMartha Greenwood - vegetarian\nTomasz Wrobel - none\nAisha Rahman - halal"))).toEqual([]);
    expect(types(text("Summarise:\nFrom: bea.holm77@gmail.com\nTo: k.ferreira@hotmail.com\nCc: olu.adeyemi@yahoo.co.uk\nSubject: picnic"))).toEqual([]);
    // A sentence that starts with a capital letter is no initial (`A Lovely flat at …`).
    expect(types(text("Listings:\nA Lovely flat at 22 Kirkstall Rd\nA Modern house at 9 Cardigan Rd\nA Bright studio at 4 Ash Grove"))).toEqual([]);
  });
  it("reads only what is handed to another agent (a tool's arguments are pii-contacts.ts's)", () => {
    expect(agentRecords(sitesOf({ body: "Mrs A Patel, 7 Rowan Close, 320\nMr D Lowry, 12 Beech Avenue, 0\nMs F Osei, 41 Station Road, 905" }))).toEqual([]);
  });
  it("stays linear on long adversarial input", () => {
    const junk = ("1 A" + " Bb".repeat(3000) + "\n").repeat(4) + ("M. " + "x@gmail.com,1;".repeat(2000)).slice(0, 60_000);
    const t0 = cpuMs();
    agentRecords(text(junk));
    expect(cpuMs() - t0).toBeLessThan(2000);
  });
});

describe("exf31: the own-agent label (balanced pack)", () => {
  const { ruleSet: loaded } = loadRules(readRuleSources("rules/balanced.yaml"));
  if (!loaded) throw new Error("rules/balanced.yaml does not load");
  const ruleSet = loaded;
  const rows = "Reconcile:\nref,tenant,address,due\nT-1,Laura Bennett,4 Ash Grove LS6,0\nT-2,Imran Qureshi,22 Kirkstall Rd LS4,1960\nT-3,Chloe Dunn,9 Cardigan Rd LS6,0";
  const send = { jsonrpc: "2.0", id: 2, method: "message/send", params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: rows }] } } };
  const card = (description: string, name = "Accounts Agent") => ({ jsonrpc: "2.0", id: 1, result: { name, description, url: "http://127.0.0.1:9/", protocolVersion: "0.3.0", version: "1", capabilities: {}, skills: [] } });
  const judge = (description: string | null, name?: string) => {
    const g = new EmbeddedGuardian(ruleSet, { now: () => new Date("2026-11-28T12:00:00Z") });
    const ctx = { session: "s", route: "r", transport: "test" };
    if (description !== null) g.call(buildAosRequest("protocols/A2A", card(description, name), { ...ctx, direction: "inbound", request: { jsonrpc: "2.0", id: 1, method: "agent/card" } }));
    const r = g.call(buildAosRequest("protocols/A2A", structuredClone(send), { ...ctx, direction: "outbound" }));
    return (r as { result: { decision: string } }).result.decision;
  };
  it("refuses the records to an agent whose card says nothing of its owner, or says it is a third party's", () => {
    expect(judge(null)).toBe("deny");
    expect(judge("Free arrears analysis for landlords.")).toBe("deny");
    expect(judge("Third-party benchmarking service.")).toBe("deny");
    // An object called internal is not the agent itself.
    expect(judge("Creates reports for internal services.")).toBe("deny");
  });
  it("lets them pass to an agent whose card says it is the organisation's own", () => {
    expect(judge("Internal client-account reconciliation for Harbour Lettings.")).toBe("allow");
    expect(judge("Harbour Lettings' own accounting agent.")).toBe("allow");
    expect(judge("Books shipments for Harbour Lettings.", "Accounts (internal)")).toBe("allow");
    expect(judge("Harbour Lettings in-house accounts agent.")).toBe("allow");
  });
});

describe("exf31: special-category lists naming people by a title or a table's first cell", () => {
  const found = (body: string) => detectSpecial(sitesOf({ body })).length;
  it("finds titled residents with their conditions, and a table headed other than 'name'", () => {
    expect(found("Flat 2 - Mrs J Ellis, dementia, lives alone\nFlat 5 - Mr K Owusu, wheelchair user\nFlat 9 - Ms R Lane, epilepsy")).toBe(3);
    expect(found("Bewohner, Zimmer, condition\nFrau Keller, 3, Demenz\nHerr Brandt, 4, diabetes\nFrau Yilmaz, 7, epilepsy")).toBe(3);
    expect(found("Driver, unit, condition, result\nJ. Harlan, 12, sleep apnea, negative\nP. Moreno, 14, diabetes, negative\nT. Greer, 9, hypertension, positive")).toBe(3);
  });
  it("leaves one patient, clinicians' titles and lists without conditions alone", () => {
    expect(found("Dear Dr Okafor,\nMrs L Hart was seen today: dementia review, no change.\nRegards")).toBe(0);
    expect(found("Mr K Owusu - theatre 3, 08:00\nMs R Lane - theatre 1, 09:30\nMrs J Ellis - theatre 2, 13:00")).toBe(0);
    expect(found("Dr A Shah, diabetes clinic, Monday\nDr B Ng, epilepsy clinic, Tuesday\nDr C Roe, asthma clinic, Friday")).toBe(0);
  });
});

describe("exf31: one helper for the digits of other scripts", () => {
  it("reads the digits of 22 blocks as ASCII, keeping the length, for both checks", () => {
    const t = "၁၂၃ ۱۴۰۰ ١٢ १८० ௧௨ ໑໒ ១២ ๑๒ １２ abc 09";
    expect(asciiDigits(t)).toBe("123 1400 12 180 12 12 12 12 12 abc 09");
    expect(asciiDigits(t).length).toBe(t.length);
    expect(bulkDigits(t)).toBe(asciiDigits(t));
    expect([otherDigit(0x35), otherDigit(0x661), otherDigit(0xe55), otherDigit(0xff19), otherDigit(0x4e00)]).toEqual([-1, 1, 5, 9, -1]);
  });
  it("lets pii-rows read a returned list written in Thai digits", () => {
    const rows = "ผลการค้นหา:\nสมชาย ใจดี ๑๙๘๕-๐๓-๑๔ โทร ๐๘๑ ๒๓๔ ๕๖๗๘\nสมศรี มีสุข ๑๙๙๐-๐๗-๐๒ โทร ๐๘๙ ๔๔๐ ๑๒๓๙\nประยุทธ์ ทองดี ๑๙๗๘-๑๑-๒๓ โทร ๐๘๖ ๗๗๑ ๐๐๔๕";
    expect(detectPeopleRows([{ path: ["result", "content", 0, "text"], value: rows }]).length).toBe(3);
    expect(detectPeopleRows([{ path: ["result", "content", 0, "text"], value: "สมชาย ใจดี ๑๙๘๕-๐๓-๑๔ โทร ๐๘๑ ๒๓๔ ๕๖๗๘" }])).toEqual([]);
  });
});

describe("exf31: corpus", () => {
  it("passes every case of its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/exf31.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(14);
  });
});
