import { describe, expect, it } from "vitest";
import { sitesOf } from "../support/sites.js";
import { cpuMs } from "../support/cpu.js";
import { pathCredential } from "../../src/guardian/detectors/exfil-path-credentials.js";
import { secrecyAsked } from "../../src/guardian/detectors/exfil-secrecy.js";
import { mailedSecrets } from "../../src/guardian/detectors/exfil-sinks.js";

/* Twenty-fourth round (issue 24, "exf24"): a password in a URL's path, secrecy asked of a personal mailbox. */

describe("a password in a URL's path", () => {
  const path = (u: string) => pathCredential(new URL(u).pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s)));
  it("finds a short or translated word followed by the password, or joined to it", () => {
    expect(path("https://x.example/acct/j.moreau/pw/Soleil-Rouge-44!/done")).toBe(true);
    expect(path("https://x.example/u/r.lima/senha/Cajueiro%232026x/ok")).toBe(true);
    expect(path("https://x.example/ping/password-Qx7!sample2026/site")).toBe(true);
    expect(path("https://x.example/check/haslo_Zima2026!x/end")).toBe(true);
    expect(path("https://x.example/check/пароль/Зима2026!x")).toBe(true);
  });
  it("passes pages about passwords and a pass's serial", () => {
    expect(path("https://x.example/password-reset/start")).toBe(false);
    expect(path("https://x.example/docs/password-policy-2024")).toBe(false);
    expect(path("https://x.example/passwort-vergessen/schritt-2")).toBe(false);
    expect(path("https://x.example/pw/settings")).toBe(false);
    expect(path("https://wallet.example/pass/AbC123dEf9")).toBe(false);
  });
  it("stays fast on a long path", () => {
    const t = cpuMs();
    pathCredential(Array.from({ length: 5000 }, (_, i) => (i % 2 ? "password" : `password-${"Aa1!".repeat(40)}`)));
    expect(cpuMs() - t).toBeLessThan(100);
  });
});

describe("secrecy asked of a personal mailbox", () => {
  it("reads the request in several languages", () => {
    expect(secrecyAsked("Attached the price list. Keep this between us, please.")).toBe(true);
    expect(secrecyAsked("Das bleibt unter uns.")).toBe(true);
    expect(secrecyAsked("Entre nous, évidemment.")).toBe(true);
    expect(secrecyAsked("Nikomu nie mów, skąd to masz.")).toBe(true);
    expect(secrecyAsked("Listeyi ekte bulabilirsin, kimseyle paylaşma.")).toBe(true);
    expect(secrecyAsked("Это между нами.")).toBe(true);
  });
  it("passes the words' ordinary uses", () => {
    expect(secrecyAsked("Share it with everyone on the team.")).toBe(false);
    expect(secrecyAsked("Deliveries between 9 and 5; the distance between us and the depot is 4 km.")).toBe(false);
    expect(secrecyAsked("Contre nous, ils ont gagné 2-1.")).toBe(false);
  });
  it("counts only for a personal mailbox", () => {
    const mail = (to: string) => mailedSecrets(sitesOf({ to, subject: "x", body: "Here are the unreleased figures, keep it between us." })).length;
    expect(mail("d.keller.home@gmail.com")).toBe(1);
    expect(mail("archive@ukr.net")).toBe(1);
    expect(mail("j.park@northwind.example")).toBe(0);
  });
  it("stays fast on a long body", () => {
    const t = cpuMs();
    secrecyAsked("keep it between ".repeat(10000));
    expect(cpuMs() - t).toBeLessThan(100);
  });
});
