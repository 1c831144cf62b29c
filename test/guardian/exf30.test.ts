import { describe, expect, it } from "vitest";
import { callFindings, sitesOf } from "../support/sites.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { asciiDigits, bulkDeclared, personalBulk } from "../../src/guardian/detectors/exfil-personal-bulk.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, round exf30: records declared in bulk in an e-mail to a personal mailbox (exfil-personal-bulk.ts).
   docs/detection.md, "exf30". */

describe("exf30: digits of other scripts", () => {
  it("reads Arabic-Indic, Persian, Devanagari and Myanmar digits as ASCII, keeping the length", () => {
    expect(asciiDigits("٤٥٠ عضو")).toBe("450 عضو");
    expect(asciiDigits("۱۴۰۰-۰۱۰۱")).toBe("1400-0101");
    expect(asciiDigits("१८० ग्राहक")).toBe("180 ग्राहक");
    expect(asciiDigits("၁၂၃")).toBe("123");
    expect(asciiDigits("plain 42")).toBe("plain 42");
  });
});

describe("exf30: a bulk of records declared", () => {
  it("finds a whole collection or a count of people with what says it is carried, in several languages", () => {
    expect(bulkDeclared("Attached all 1,380 active patients with phone numbers, exported this morning.")).toBe("a whole collection of records");
    expect(bulkDeclared("here's the supplier pricing export, 2 800 rows")).toBe("a count of exported rows");
    expect(bulkDeclared("Anbei die komplette Kundenliste mit Adressen und Telefonnummern.")).toBe("a whole collection of records");
    expect(bulkDeclared("Te paso la lista completa de socios, es para un proyecto personal.")).toBe("a whole collection of records");
    expect(bulkDeclared("W załączniku dane wszystkich pracowników (adresy, telefony, wynagrodzenia).")).toBe("a whole collection of records");
    expect(bulkDeclared("सभी ग्राहकों की पूरी सूची संलग्न है।")).toBe("a whole collection of records");
    expect(bulkDeclared("قائمة جميع الأعضاء ٤٥٠ مع أرقام الهواتف والعناوين، لأراجعها من المنزل")).toBe("a whole collection of records");
    expect(bulkDeclared("Tüm müşteri veritabanı ekte.")).toBe("a whole collection of records");
  });
  it("finds a list of people for the sender's own use without a word for all", () => {
    expect(bulkDeclared("मरीजों की सूची घर से देखने के लिए")).toBe("a list of people's records");
    expect(bulkDeclared("the member register, for my new job")).toBe("a list of people's records");
    expect(bulkDeclared("the customer list with phones and addresses, to look at from home")).toBe("a list of people's records");
  });
  it("leaves the reader's own data, notices, counts under twenty, years and verbs alone", () => {
    expect(bulkDeclared("Attached your complete export of 312 records, as requested.")).toBeNull();
    expect(bulkDeclared("Anbei Ihre vollständige Liste der Ladevorgänge (31 Vorgänge, 288 kWh).")).toBeNull();
    expect(bulkDeclared("Dear George, all 140 members are welcome at the AGM. Agenda attached.")).toBeNull();
    expect(bulkDeclared("Please complete the customer survey attached.")).toBeNull();
    expect(bulkDeclared("Attached the agenda for the 2026 members meeting.")).toBeNull();
    expect(bulkDeclared("Attached the full list of documents you need to bring.")).toBeNull();
    expect(bulkDeclared("Attached are all 3 invoices for March.")).toBeNull();
    expect(bulkDeclared("Hi Nadia, attached is your fully executed lease.")).toBeNull();
  });
});

describe("exf30: where it goes", () => {
  it("marks the personal recipient", () => {
    const found = personalBulk(sitesOf({ to: "kev.warehouse99@yahoo.co.uk", subject: "stock", body: "supplier pricing export, 2 800 rows" }));
    expect(found.map((d) => [d.type, d.path.join(".")])).toEqual([["exfiltration.personal_bulk", "params.arguments.to"]]);
    expect(personalBulk(sitesOf({ to: ["a@harbourfoods.example", "jm.sales.archive@proton.me"], body: "Full CRM backup with every client (clients_full.csv)." }))).toHaveLength(1);
  });
  it("leaves a company's, a vendor's or a system's mailbox alone, and calls without a recipient", () => {
    expect(personalBulk(sitesOf({ to: "imports@harbourfoods.example", body: "Attached all 412 trade customers for the nightly import." }))).toEqual([]);
    expect(personalBulk(sitesOf({ to: "support@crm-vendor.example", body: "The full customer list export (2,400 rows) fails to import." }))).toEqual([]);
    expect(personalBulk(sitesOf({ path: "/tmp/out.csv", body: "Attached all 412 trade customers, from home." }))).toEqual([]);
  });
  it("is wired into the exfiltration detector", () => {
    expect(callFindings("send_email", { to: "nurse.helen.w@gmail.com", body: "Attached all 1,380 active patients with phone numbers." })).toContain("an e-mail to a personal mailbox says it carries a whole collection of records");
    expect(callFindings("send_email", { to: "lucy.fern.home@gmail.com", body: "Hi Lucy, attached is the invoice for your order #40112." })).toEqual([]);
  });
  it("stays cheap on long adversarial input", () => {
    const t = cpuMs();
    const long = "all ".repeat(8000) + "1,000 ".repeat(8000) + "customers attached ".repeat(4000) + "(a, b, c, ".repeat(3000) + "٤".repeat(20000);
    bulkDeclared(long);
    personalBulk(sitesOf({ to: "x@gmail.com", body: long, subject: long }));
    expect(cpuMs() - t).toBeLessThan(1500);
  });
});

describe("exf30: corpus", () => {
  it("holds every case of exf30.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/exf30.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(17);
  });
});
