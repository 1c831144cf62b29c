import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { datedIdentity, luxMatricule } from "../../src/guardian/detectors/pii-dated.js";
import { formBodyFields } from "../../src/guardian/detectors/pii-form-body.js";
import { jsonRecords } from "../../src/guardian/detectors/pii-records-json.js";
import { declaredRows, detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import { detectSecretAssignments } from "../../src/guardian/detectors/assignments.js";
import { detectSecrets } from "../../src/guardian/detectors/secrets.js";
import { collectStrings, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Thirteenth round ("pii13"): form bodies read as fields, records one object down, a preview's remainder in brackets,
// Luxembourg's matricule, special-category records by a surname after its initial, criminal-record findings and a
// person's own words beside their e-mail (public proceedings left out), the writer's own card; secrets' look-alikes
// (an access key id listed as an id, masked values, a header's name); the cost of each on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const call = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "t", arguments: args } });
const a2a = (parts: unknown[]) => collectStrings({ method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts } } });

describe("form bodies", () => {
  it("give each value decoded under its key, and indexed keys as records", () => {
    const f = formBodyFields(text("a=1%202&b=x+y"));
    expect(f.map((x) => [x.path.slice(-1)[0], x.value])).toEqual([["a", "1 2"], ["b", "x y"]]);
    const r = formBodyFields(text("name_1=Ana&id_1=12345&name_2=Rui&id_2=67890"));
    expect(r.map((x) => x.path.slice(-2))).toEqual([[1, "name"], [1, "id"], [2, "name"], [2, "id"]]);
    const n = formBodyFields(text("p[0][name]=Ana&p[0][id]=1&p[1][name]=Rui&p[1][id]=2"));
    expect(n.map((x) => x.path.slice(-2))).toEqual([[0, "name"], [0, "id"], [1, "name"], [1, "id"]]);
  });

  it("are not URLs, JSON, lines of text or a single pair without an escape", () => {
    for (const v of ["https://x.example/?a=1&b=2", '{"a":"b=c&d=e"}', "a=1&b=2\nc=3", "token=abc", "just some text = not a form & more"]) expect(formBodyFields(text(v)), v).toEqual([]);
  });

  it("let the bulk checks read a percent-encoded paste and indexed passports, findings on the body", () => {
    const paste = "api_option=paste&api_paste_code=Dana%20Whitfield%20SSN%20219-09-9999%0AOwen%20Brady%20SSN%20078-05-1120";
    const found = detectPiiBulk(text(paste));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => JSON.stringify(d.path) === JSON.stringify(["params", "arguments", "body"]) && d.start === 0 && d.end === paste.length)).toBe(true);
    expect(detectPiiBulk(text("name1=Ivo Marin&passport1=P4829175&name2=Lea Kranjc&passport2=P5930286&name3=Tin Horvat&passport3=P6041397")).length).toBeGreaterThan(0);
    expect(detectPiiBulk(text("item_1=Blue+Mug&qty_1=2&sku_1=100234&item_2=Tea+Towel&qty_2=1&sku_2=100235"))).toEqual([]);
  });
});

describe("records one object down", () => {
  it("read a nested user's birth date and contact, in a JSON text and in the call's own arrays", () => {
    const ev = (phone: string, dob: string) => ({ type: "signup", user: { phone, dob } });
    const events = [ev("+44 7700 900111", "1999-01-12"), ev("+44 7700 900222", "1987-06-30"), ev("+44 7700 900333", "1992-09-09")];
    expect(types(jsonRecords(text(JSON.stringify({ events }))))).toEqual(["pii_bulk.records"]);
    expect(types(jsonRecords(call({ events })))).toEqual(["pii_bulk.records"]);
    const noBirth = events.map((e) => ({ user: { phone: e.user.phone, id: "u" }, created_at: "2026-11-26" }));
    expect(jsonRecords(call({ events: noBirth }))).toEqual([]);
  });
});

describe("a preview's remainder in brackets", () => {
  it("is counted with a plus and no ellipsis", () => {
    expect(declaredRows("a,b\n1,2\n(+611 rows)")).toBe(611);
    expect(declaredRows("a,b\n1,2\n[+2,340 more records]")).toBe(2340);
    expect(declaredRows("see section (+3 points)")).toBe(0);
  });
});

describe("Luxembourg's matricule", () => {
  it("holds a date and both check digits", () => {
    expect(luxMatricule("1967082231571")).toBe(true);
    expect(luxMatricule("1967082231572")).toBe(false); // Verhoeff
    expect(luxMatricule("1967082231561")).toBe(false); // Luhn
    expect(luxMatricule("1967132231571")).toBe(false); // month 13
    expect(datedIdentity("1988031704243")).toBe(true);
    for (const s of ["2026112700123", "4006381333931", "1111111111111"]) expect(datedIdentity(s), s).toBe(false);
  });
});

describe("special-category records", () => {
  it("name people by a surname after its initial beside a condition", () => {
    expect(types(detectSpecial(text("K. Lindqvist — pregnancy, leave from 3/2\nM. Osei — burn-out, off\nT. Novak — chemo on Tuesdays")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("J. Wendt — senior SRE, 8 years\nA. Kaya — platform engineer\nT. Brandt — SRE lead"))).toEqual([]);
    expect(detectSpecial(text("Dr. A. Berg — diabetes research talk\nProf. K. Osei — epilepsy study results"))).toEqual([]);
  });

  it("read criminal-record findings, but not a docket or a news item", () => {
    expect(types(detectSpecial(text("Tomás Rivera — felony 2017\nGrace Liu — clear\nDev Malhotra — two misdemeanors, DUI 2020")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("State v. Tom Reed — felony theft, hearing 12/3\nState v. Ana Cruz — misdemeanor trespass"))).toEqual([]);
    expect(detectSpecial(text("Anders Berg, former CEO, convicted of fraud (Reuters)\nMaria Holm, councillor, DUI charge dropped, court says"))).toEqual([]);
  });

  it("take an e-mail address as the person beside their own words about their health", () => {
    const own = "ana.r@post.example: 'I'm bipolar and the reminders stress me'\nkai.w@inbox.example: 'since my stroke I can't type fast'";
    expect(types(detectSpecial(text(own)))).toEqual(["pii_bulk.special"]);
    const data = a2a([{ kind: "data", data: { tickets: [{ email: "a@post.example", text: "I have epilepsy, the flashing gave me a seizure" }, { email: "b@post.example", text: "I'm diabetic and the long raid is hard" }] } }]);
    expect(types(detectSpecial(data))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("anna.k@post.example: 'I loved your article on anxiety'\ntom.r@inbox.example: 'my team read the diabetes article'"))).toEqual([]);
    expect(detectSpecial(text("anna.k@post.example: 'I cannot log in'\ntom.r@inbox.example: 'my invoice is wrong'"))).toEqual([]);
  });
});

describe("the writer's own card", () => {
  it("passes alone in the first person; another's, or two, do not", () => {
    expect(detectPiiBulk(a2a([{ kind: "text", text: "Pay with my Visa card 4024007144317798, exp 11/28, CVC 615." }]))).toEqual([]);
    expect(detectPiiBulk(a2a([{ kind: "text", text: "Retry my customer's card 5425233430109903, exp 03/28, CVC 912." }])).length).toBeGreaterThan(0);
    expect(detectPiiBulk(a2a([{ kind: "text", text: "my card 4024007144317798 exp 11/28 cvc 615 and my partner's 5425233430109903 exp 03/28 cvc 912" }])).length).toBeGreaterThan(0);
  });
});

describe("secrets' look-alikes", () => {
  it("an access key id listed as an id is not a credential; with its secret it is", () => {
    const inventory = call({ keys: [{ user: "ci", access_key_id: "AKIA2OGYBAH6QW8E4R7T" }] });
    expect(detectSecrets(inventory)).toEqual([]);
    expect(detectSecrets(text("Access key id AKIA2OGYBAH6QW8E4R7T (IAM user ci), last used yesterday"))).toEqual([]);
    expect(detectSecretAssignments(text('{"UserName":"ci","AccessKeyId":"AKIA2OGYBAH6QW8E4R7T","Status":"Active"}'))).toEqual([]);
    const withSecret = call({ access_key_id: "AKIA2OGYBAH6QW8E4R7T", secret_access_key: "q8Zr5vT2mN9pL4kX7cB1wY6hJ3dF0sG8aE2uR5tI" });
    expect(types(detectSecrets(withSecret))).toContain("secrets.aws_access_key");
  });

  it("a masked value and a header's name are no values; a full key and a trailing ellipsis still count", () => {
    expect(detectSecretAssignments(text("Secret: sk_live_…4Fz9 (last used)"))).toEqual([]);
    expect(detectSecretAssignments(text("token: `Authorization: Bearer <your key>`"))).toEqual([]);
    expect(detectSecretAssignments(text("secret: sk_live_51Hx9aQ2kLmN8pR4tV6wY0zB3cD5eF7g")).length).toBe(1);
    expect(detectSecretAssignments(text("password: S3cr3tPa55xQ...")).length).toBe(1);
  });
});

describe("cost", () => {
  it("stays linear on long adversarial text", () => {
    expectLinear(["a_1=b&", "k%20=%2&", "x[1][y]=Ana Silva&", "p=%41"], (v: string) => formBodyFields(text(v)));
    expectLinear(["J. Wendt — ", "x@y.co: 'I my epilepsy' ", "State v. felony ", "(+611 rows) ", "A. B. C. D. "], (v: string) => {
      detectSpecial(text(v));
      declaredRows(v);
    });
    expectLinear(["my card my card ", "my Visa Visa card 4024007144317798 exp 11/28 cvc 615 "], (v: string) => detectPiiBulk(text(v)));
  });
});
