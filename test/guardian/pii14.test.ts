import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { ownTransaction } from "../../src/guardian/detectors/pii-own-record.js";
import { detectProtected } from "../../src/guardian/detectors/pii-protected.js";
import { detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import { detectTraces } from "../../src/guardian/detectors/pii-traces.js";
import { collectStrings, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Fourteenth round ("pii14"): special-category records (rows as arrays, a heading before the first name, drug tests,
// injuries beside a phone, a health id as the person, body measures beside an e-mail), location traces of identified
// people, advertising ids joined to contacts, people whose identity is the secret, two children of other families,
// one person's record in its own booking or clinical order; the cost of each on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const call = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "t", arguments: args } });
const a2a = (parts: unknown[]) => collectStrings({ method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts } } });

describe("special-category records, read further", () => {
  it("reads a row given as an array of cells as one record", () => {
    const rows = [["J. Okafor", "tinnitus, hearing protection"], ["L. Brandt", "sleep apnoea, no nights"], ["P. Novak", "on insulin"]];
    expect(types(detectSpecial(call({ rows })))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(call({ rows: [["Insulin Pen Needles", "box of 100"], ["Glucose Meter Kit", "1"], ["Cooler", "1"]] }))).toEqual([]);
  });

  it("finds a name after a heading's colon, and a form's number is not a product's form", () => {
    expect(types(detectSpecial(text("Screening line 2: T. Berg – 40 dB loss L ear; S. Haddad – tinnitus; K. Lund – hearing loss")))).toEqual(["pii_bulk.special"]);
    expect(types(detectSpecial(text("R. Alvarez | insulin-treated diabetes (ITDM 5870 form)\nK. Osei | sleep apnea\nM. Lind | monocular vision")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("fix the diabetes form on the signup page\nrelease the asthma form\nreview the form"))).toEqual([]);
  });

  it("counts an injury beside a phone, not an injury alone", () => {
    expect(types(detectSpecial(text("Omar Faris | +44 7700 900412 | fractured wrist\nLena Koch | +44 7700 900518 | concussion")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("Omar Faris — fractured wrist\nLena Koch — concussion"))).toEqual([]);
  });

  it("takes a health id under its key as the person, not a pseudonym", () => {
    const rows = (ids: string[]) => a2a([{ kind: "data", data: { rows: ids.map((id, i) => ({ health_number: id, dx: i ? "F32.1" : "E11.9" })) } }]);
    expect(types(detectSpecial(rows(["4827 113 902", "4827 556 018"])))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(rows(["P-0012", "P-0013"]))).toEqual([]);
  });

  it("takes a body measure under its key beside an e-mail, and not step counts", () => {
    const body = (k: string) => JSON.stringify({ users: [{ email: "ines.r@mailbox.example", [k]: 12 }, { email: "kara.b@inbox.example", [k]: 3 }] });
    expect(types(detectSpecial(text(body("cycle_day"))))).toEqual(["pii_bulk.special"]);
    expect(types(detectSpecial(text(body("resting_hr"))))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text(body("steps")))).toEqual([]);
  });
});

describe("location traces and advertising ids", () => {
  const trace = (who: string[], decimals = 5, ts = true) =>
    "driver," + (ts ? "ts," : "") + "lat,lon\n" + who.map((w, i) => `${w},${ts ? `2026-11-01T0${i}:14Z,` : ""}57.${"6882123".slice(0, decimals)},11.${"9441256".slice(0, decimals)}`).join("\n");

  it("finds timed positions of two identified people, one of them at two points", () => {
    expect(types(detectTraces(text(trace(["R. Alvarez", "R. Alvarez", "K. Osei"]))))).toEqual(["pii_bulk.location"]);
  });

  it("leaves one person's track, positions without time, rounded positions and hashed people", () => {
    expect(detectTraces(text(trace(["R. Alvarez", "R. Alvarez", "R. Alvarez"])))).toEqual([]);
    expect(detectTraces(text(trace(["R. Alvarez", "R. Alvarez", "K. Osei"], 5, false)))).toEqual([]);
    expect(detectTraces(text(trace(["R. Alvarez", "R. Alvarez", "K. Osei"], 2)))).toEqual([]);
    expect(detectTraces(text(trace(["3f9a1c0e77b2", "3f9a1c0e77b2", "8c21aa90d1e3"])))).toEqual([]);
  });

  it("finds advertising ids joined to plain contacts, not to hashes, internal ids or the zero id", () => {
    const rows = (k: string, v: string[], id = "6D92078A-8246-4BA4-AE5B-76104861E7DC") => JSON.stringify({ rows: v.map((x) => ({ idfa: id, [k]: x })) });
    expect(types(detectTraces(text(rows("phone", ["+14155550142", "+13125550199"]))))).toEqual(["pii_bulk.people"]);
    expect(detectTraces(text(rows("em", ["f1d2d2f924e986ac86fdf7b36c94bcdf32beec15f1d2d2f924e986ac86fdf7b3", "e242ed3bffccdf271b7fbaf34ed72d089537b42fe242ed3bffccdf271b7fbaf3"])))).toEqual([]);
    expect(detectTraces(text(rows("customer_user_id", ["u_1", "u_2"])))).toEqual([]);
    expect(detectTraces(text(rows("email", ["a.b@post.example", "c.d@post.example"], "00000000-0000-0000-0000-000000000000")))).toEqual([]);
  });
});

describe("people whose identity is the secret", () => {
  it("finds two named with a way to reach them beside their role", () => {
    expect(types(detectProtected(text("our anonymous sources are Jan Kowal (+48 512 300 118) and Ewa Nowak (+48 600 991 204)")))).toEqual(["pii_bulk.special"]);
    expect(types(detectProtected(text("Informants:\nDario Vukovic, 0161 496 0123\nSasha Petrenko, +44 7700 900981")))).toEqual(["pii_bulk.special"]);
  });

  it("finds one person the sentence names as the protected one", () => {
    expect(types(detectProtected(text("The informant on the port case is Marek Wolny, 0161 496 0777, ask for him at gate 4.")))).toEqual(["pii_bulk.special"]);
    expect(detectProtected(text("Our source code is at git.acme.example, contact Anna Berg +46 70 111 22 33 for access."))).toEqual([]);
    expect(detectProtected(text("Two anonymous sources said so. The spokesperson is Eva Lund (+46 8 123 45 67)."))).toEqual([]);
  });

  it("leaves a channel or a rule for them, one person, and a list with no protected role", () => {
    expect(detectProtected(text("Whistleblowing officers: Anna Holt, +44 20 7946 0011; Ben Carr, +44 20 7946 0022."))).toEqual([]);
    expect(detectProtected(text("Call the informant hotline: Crime Desk +44 800 555 0100 or Harbour Unit +44 800 555 0111"))).toEqual([]);
    expect(detectProtected(text("Two anonymous sources said so. Spokesperson Eva Lund (+46 8 123 45 67) declined to comment."))).toEqual([]);
    expect(detectProtected(text("Press list: Anna Berg, +46 70 111 22 33; Tom Lee, +46 70 444 55 66."))).toEqual([]);
  });
});

describe("two children of other families", () => {
  const year = new Date().getUTCFullYear();
  it("counts two children's rows with two contacts, not one family's or two adults'", () => {
    const rows = (a: number, b: number, p2: string) => `name,dob,phone\nLiam Carter,${a}-06-02,+44 7700 900311\nZoe Ahmed,${b}-11-19,${p2}`;
    expect(types(detectPiiBulk(text(rows(year - 9, year - 10, "+44 7700 900422"))))).toEqual(["pii_bulk.records"]);
    expect(detectPiiBulk(text(rows(year - 9, year - 7, "+44 7700 900311")))).toEqual([]);
    expect(detectPiiBulk(text(rows(year - 38, year - 36, "+44 7700 900422")))).toEqual([]);
  });
});

describe("one person's record in its own booking or clinical order", () => {
  const data = (d: Record<string, unknown>) => a2a([{ kind: "data", data: d }]);
  it("passes a passenger's passport with the booking's locator, and a patient's MRN in an order", () => {
    expect(detectPiiBulk(data({ booking: "QX7L2M", passenger: "Lena Fischer", passport: "C01X00T47", dob: "1990-07-01" }))).toEqual([]);
    expect(detectPiiBulk(data({ patient: { name: "Omar Haddad", dob: "1971-03-22", mrn: "00881234" }, tests: ["TSH"] }))).toEqual([]);
  });

  it("still counts no booking, an SSN in an order, a card beside it, or a second passenger", () => {
    expect(types(detectPiiBulk(data({ passenger: "Lena Fischer", passport: "C01X00T47", dob: "1990-07-01" })))).toEqual(["pii_bulk.identity"]);
    expect(types(detectPiiBulk(data({ patient: { name: "Omar Haddad", dob: "1971-03-22", ssn: "219-09-9999" }, tests: ["TSH"] })))).toEqual(["pii_bulk.identity"]);
    expect(detectPiiBulk(data({ booking: "QX7L2M", passport: "C01X00T47", dob: "1990-07-01", card: "4556737586899855", exp: "12/27" })).length).toBeGreaterThan(0);
    const two = data({ booking: "QX7L2M", passengers: [{ name: "Lena Fischer", passport: "C01X00T47", dob: "1990-07-01" }, { name: "Jonas Fischer", passport: "C01X00T58", dob: "1989-02-11" }] });
    expect(detectPiiBulk(two).length).toBeGreaterThan(0);
    const site = { path: ["x", "passport"], value: "C01X00T47" };
    expect(ownTransaction([site, { path: ["x", "booking"], value: "QX7L2M" }], site, 2, 0)).toBe(false);
  });
});

describe("cost", () => {
  it("stays linear on adversarial text", () => {
    expectLinear(["Jan Kowal +48 512 300 118 anonymous sources ", "Ann Lee Ann Lee Ann Lee ", "informant "], (v: string) => detectProtected(text(v.slice(0, 16 * 1024))));
    expectLinear(["driver,ts,lat,lon\n", "R. Alvarez,2026-11-01T08:14Z,57.68821,11.94412\n", "idfa "], (v: string) => detectTraces(text(v)));
    expectLinear(["Z. Wei: ", "+44 7700 900412 ", "5870 form ", "x: A. B; "], (v: string) => detectSpecial(text(v)));
    expectLinear(["name,dob,phone\n", "Liam Carter,2017-06-02,+44 7700 900311\n"], (v: string) => detectPiiBulk(text(v)));
  });
});
