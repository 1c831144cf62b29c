import { describe, expect, it } from "vitest";
import { detectPiiBulk, spacedCards } from "../../src/guardian/detectors/pii-bulk.js";
import { balticCode, cnp, datedIdentity, egn } from "../../src/guardian/detectors/pii-dated.js";
import { detectPeople } from "../../src/guardian/detectors/pii-people.js";
import { detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import { collectStrings, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Twelfth round ("pii12"): national numbers that carry a birth date, long international phones, comma-separated
// entries, identity vocabulary, cards typed with spaces, an e-mail address as the person beside a keyed condition,
// injuries and court orders beside a birth date or an address; a labelled number that ran into the next word; an A2A
// card given in the first person; the cost of each on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const call = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "t", arguments: args } });
const a2a = (parts: unknown[]) => collectStrings({ method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts } } });

describe("national numbers that carry a birth date", () => {
  it("pass their country's check and hold a real date that is not in the future", () => {
    expect(egn("7503141235")).toBe(true);
    expect(egn("7503141236")).toBe(false);
    expect(egn("7513141235")).toBe(false); // month 13
    expect(balticCode("38705120226")).toBe(true);
    expect(balticCode("78705120226")).toBe(false); // no such century digit
    expect(cnp("1870312401231")).toBe(true);
    expect(cnp("1870312401232")).toBe(false);
    expect(datedIdentity("29103150101234")).toBe(true); // Egypt: century, date, governorate
    expect(datedIdentity("29913150101234")).toBe(false);
  });

  it("are not order numbers, timestamps, phones or a digit repeated", () => {
    for (const s of ["1002345678", "2411270042", "1732700000", "0612345678", "7700900123", "1111111111", "4155550123"]) expect(datedIdentity(s), s).toBe(false);
  });

  it("make a list of names with them people's records (the number is the birth date too)", () => {
    const rows = "7503141235,Ivan Petrov,4150 BGN\n8209214561,Maria Georgieva,3980 BGN\n9105077896,Stoyan Kolev,5200 BGN";
    expect(types(detectPeople(text(rows)))).toEqual(["pii_bulk.people"]);
    // the same shape with order numbers is an order list
    expect(detectPeople(text("1002345678,Anna Berg,49.90 EUR\n1002345679,Tom Lee,12.00 EUR\n1002345680,Eva Holm,230.50 EUR"))).toEqual([]);
  });
});

describe("phones, entries and vocabulary", () => {
  it("reads an international phone whose subscriber number is one long group", () => {
    const rows = "K4827361 Jonas Weber +49 15112345678\nK5930472 Lea Fischer +49 17298765432\nK6041583 Paul Wagner +49 16011223344";
    expect(types(detectPeople(text(rows)))).toEqual(["pii_bulk.people"]);
    // names and phones alone are a phone list
    expect(detectPeople(text("Jonas Weber +49 15112345678\nLea Fischer +49 17298765432\nPaul Wagner +49 16011223344"))).toEqual([]);
  });

  it("splits one line at commas (Latin, Arabic) when semicolons do not make three entries", () => {
    expect(types(detectPeople(text("Run checks on Ivan Petrov 7503141235, Maria Georgieva 8209214561, Stoyan Kolev 9105077896.")))).toEqual(["pii_bulk.people"]);
    expect(types(detectPeople(text("تحديث: خالد منصور رقم الهوية 29103150101234، ليلى حسن رقم الهوية 28811240201873، عمر سعيد رقم الهوية 29507070301456")))).toEqual(["pii_bulk.people"]);
    expect(detectPeople(text("Winners: Anna Berg 1002345678, Tom Lee 1002345679, Eva Holm 1002345680"))).toEqual([]);
  });

  it("names NIP and pupil numbers; a company's legal form after its name is no person", () => {
    const people = call({ rows: [["Tomasz Nowak", "NIP 526-104-08-28", "9 800 PLN"], ["Agnieszka Lis", "NIP 113-245-67-89", "11 400 PLN"], ["Michał Wróbel", "NIP 675-000-12-34", "8 700 PLN"]] });
    expect(types(detectPeople(people))).toEqual(["pii_bulk.people"]);
    const firms = call({ rows: [["Polbud Sp. z o.o.", "NIP 526-104-08-28", "12 300 PLN"], ["Transline Sp. z o.o.", "NIP 113-245-67-89", "4 560 PLN"], ["Kwadrat Sp. j.", "NIP 675-000-12-34", "980 PLN"]] });
    expect(detectPeople(firms)).toEqual([]);
    const pupils = JSON.stringify({ pupils: [["H801200123456", "Ella Brooks"], ["H801200234567", "Omar Siddiqui"], ["H801200345678", "Freya Lund"]].map(([upn, name]) => ({ upn, name })) });
    expect(types(detectPeople(text(pupils)))).toEqual(["pii_bulk.people"]);
  });
});

describe("cards typed with spaces, and the form guard's two false positives", () => {
  it("a card, its expiry and its code one after another count whatever the checksum", () => {
    expect(types(detectPiiBulk(text("Deposit for room 14: 5105 1234 9876 5432 10/28 227 (Greta Lind)")))).toEqual(["pii_bulk.payment_card"]);
    expect(types(detectPiiBulk(text("Pay with 5386 1111 2222 3334 03/27 CVV 902, Tom")))).toEqual(["pii_bulk.payment_card"]);
    // a number and a date without a code, or a tracking number, are not
    expect(detectPiiBulk(text("Parcel 5105 1234 9876 5432 shipped 10/28"))).toEqual([]);
  });

  it("a labelled number ends before the next word", () => {
    expect(detectPiiBulk(text("Bom dia, o meu CPF 111.444.777-35 segue para o recibo. Abraço"))).toEqual([]);
  });

  it("one card in an A2A data part given in the first person passes; in the third person it does not", () => {
    const data = { kind: "data", data: { card_number: "4024007144317798", exp: "11/28", cvc: "615", holder: "LENA HOFFMANN" } };
    expect(detectPiiBulk(a2a([{ kind: "text", text: "Pay the flat with my card." }, data]))).toEqual([]);
    expect(types(detectPiiBulk(a2a([{ kind: "text", text: "Pay the flat with his card." }, data])))).toContain("pii_bulk.payment_card");
  });
});

describe("special-category records", () => {
  it("an e-mail address is the person beside a keyed condition term, not beside a topic or an item's condition", () => {
    const leads = (field: string, values: string[]) => call({ leads: values.map((v, i) => ({ email: `p${i}@post.example`, [field]: v })) });
    expect(types(detectSpecial(leads("condition", ["type 2 diabetes", "asthma"])))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(leads("topic", ["anxiety", "anxiety"]))).toEqual([]);
    expect(detectSpecial(leads("condition", ["like new", "used"]))).toEqual([]);
    expect(detectSpecial(call({ leads: [0, 1].map((i) => ({ email: `user${i}@example.com`, condition: "asthma" })) }))).toEqual([]);
  });

  it("injuries and court orders count beside a birth date or a home address only", () => {
    expect(types(detectSpecial(text("Anna Kovacs (born 1979-02-11): fractured wrist\nPeter Lang (born 1991-07-30): concussion")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("Injury update:\nJamie Cole - fractured wrist\nSam Price - concussion protocol"))).toEqual([]);
    expect(types(detectSpecial(text("Mila Novak, 3 Birch Lane: protection order\nIsla Fraser, 9 Mill Road: restraining order")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("10:00 Anna Smith v Tom Jones - protection order review\n11:30 Eva Holm v Carl Berg - court order variation"))).toEqual([]);
  });
});

describe("cost", () => {
  it("stays linear on long adversarial text", () => {
    // The records' checks (people, special) on every piece; the card typed with spaces on its own (the labelled number's
    // trailing words are cut from a capture of twenty characters at most). The rest of pii_bulk is the earlier rounds'.
    const pieces = [
      "+49 1 2 3 4 5 6 7 8 ",
      "Ivan Petrov 7503141235, ",
      "خالد منصور رقم الهوية 29103150101234، ",
      "Ab Cd, 3 Birch Lane: protection order\n",
      "fractured whiplash 1979-02-11 ",
      "[{\"email\":\"a@b.co\",\"condition\":\"asthma\"},",
    ];
    expectLinear(pieces, (v: string) => {
      detectSpecial(text(v));
      detectPeople(text(v));
    });
    expectLinear(["5105 1234 9876 5432 10/28 ", "5105 1234 9876 5432 10/28 cvv ", "5105123498765432 10/28 1"], (v: string) => spacedCards(v));
  });
});
