import { describe, expect, it } from "vitest";
import { passwordList, recoveryCodes } from "../../src/guardian/detectors/exfil-credential-lists.js";
import { phoneMessages } from "../../src/guardian/detectors/exfil-messages.js";
import { cpuMs } from "../support/cpu.js";

/* Twenty-first round (issue 24, the lead): credentials in a text message by their shape. The corpus cases are in
 * test/fixtures/corpus/lead21.test.yaml; docs/detection.md, "Twenty-first round: credentials in a text message by their
 * shape". */

const site = (value: string) => ({ path: ["params", "arguments", "text"], value });

describe("several passwords by their shape", () => {
  it("finds two distinct password-shaped values in any language's message", () => {
    expect(passwordList("PC01 Tq5#wm8Lz\nPC02 Bv2&nx7Kp")).toBe(true);
    expect(passwordList("受付ルーター: Rt8%hq3Wx / NAS管理: Ns5@kd7Vb")).toBe(true);
    expect(passwordList("gerente = Pm4#Lx9qe ; rececao = Rc7!Vz2km")).toBe(true);
  });
  it("passes one password, references without symbols, addresses and a value repeated", () => {
    expect(passwordList("Wi-Fi: Lantern-Guest, password Coffee#2026Beans.")).toBe(false);
    expect(passwordList("bookings QX7TR2 and PL9MK4, order ORD-88412")).toBe(false);
    expect(passwordList("write to Ana.Silva1@Example.com or Jo.Ng2@Example.org")).toBe(false);
    expect(passwordList("code Tq5#wm8Lz, again: Tq5#wm8Lz")).toBe(false);
  });
});

describe("recovery codes", () => {
  it("finds three groups of digits beside a word for codes", () => {
    expect(recoveryCodes("backup codes: 1207-4451 9930-2284 6615-0072")).toBe(true);
    expect(recoveryCodes("Códigos: 55120-88314, 90127-33418, 47719-20066")).toBe(true);
    expect(recoveryCodes("Kody odzyskiwania: 3381-0926, 7720-4415, 1168-5539")).toBe(true);
  });
  it("passes one code, year ranges, opening hours, letters in the groups, and groups without a word for codes", () => {
    expect(recoveryCodes("Your code is 4821-1903.")).toBe(false);
    expect(recoveryCodes("codes from 2023-2024, 2024-2025 and 2025-2026 expired")).toBe(false);
    expect(recoveryCodes("kod: 0900-1700, 1000-1400, 1100-1300")).toBe(false);
    expect(recoveryCodes("codes HU12-AB34, HU56-CD78, HU90-EF12")).toBe(false);
    expect(recoveryCodes("invoices 1207-4451 9930-2284 6615-0072 paid")).toBe(false);
  });
});

describe("a phone's messenger is a text message", () => {
  it("judges Telegram, Viber and WhatsApp tools, and leaves other tools to the other checks", () => {
    const text = "logins: a1 Tq5#wm8Lz, a2 Bv2&nx7Kp";
    for (const tool of ["telegram_send_message", "viber_send", "whatsapp_send", "send_sms"]) expect(phoneMessages([site(text)], tool)).toHaveLength(1);
    expect(phoneMessages([site(text)], "save_note")).toEqual([]);
    expect(phoneMessages([site(text)], "send_signal")).toEqual([]);
  });
  it("stays linear on a long adversarial message", () => {
    const long = ("Aa1!" + "x".repeat(40) + " 1234-").repeat(3000) + " codes";
    const start = cpuMs();
    passwordList(long);
    recoveryCodes(long);
    phoneMessages([site(long)], "send_sms");
    expect(cpuMs() - start).toBeLessThan(1000);
  });
});
