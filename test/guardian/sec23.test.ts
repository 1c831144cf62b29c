import { describe, expect, it } from "vitest";
import { judgeCommandLine } from "../../src/guardian/detectors/commands.js";
import { endlessSend } from "../../src/guardian/detectors/commands-flood.js";
import { returnedLogins } from "../../src/guardian/detectors/secrets-returned.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, twenty-third round ("sec23"): docs/detection.md, "Twenty-third round: … ("sec23")". */

const flood = (s: string) => endlessSend(s.toLowerCase());

describe("sec23: a loop that sends without end or pause", () => {
  it("judges an endless unpaced loop that sends to a host, a broker, a bus or a device", () => {
    expect(flood("while true; do curl -s -X POST https://orders.example.net/api/checkout -d @cart.json; done")).not.toBeNull();
    expect(flood("while :; do mosquitto_pub -h 10.0.4.2 -t line3/valve -m OPEN; done")).not.toBeNull();
    expect(flood("until false; do echo -ne '\\x01\\x06\\x00' > /dev/ttyUSB0; done")).not.toBeNull();
    expect(flood("python3 -c 'import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\nwhile True:\n  s.sendto(b\"x\"*1400,(\"192.0.2.9\",5060))'")).not.toBeNull();
    expect(flood("for ((;;)); do ncat 198.51.100.4 502 < write_coil.bin; done")).not.toBeNull();
    expect(flood("hping3 --flood -S -p 443 203.0.113.7")).not.toBeNull();
    expect(judgeCommandLine("while true; do snmpset -v2c -c private 10.1.1.1 1.3.6.1.2.1.2.2.1.7.3 i 2; done").some((f) => f.type === "dangerous_command.flood")).toBe(true);
  });
  it("passes a bounded loop, a loop over input, a paced poll, a listener and a retry that stops", () => {
    expect(flood("for i in $(seq 1 5); do curl -s https://api.example.com/ping; done")).toBeNull();
    expect(flood("while read host; do ping -c 1 \"$host\"; done < hosts.txt")).toBeNull();
    expect(flood("while true; do curl -fsS http://localhost:8080/health; sleep 30; done")).toBeNull();
    expect(flood("while true; do nc -l 8080 < reply.http; done")).toBeNull();
    expect(flood("until curl -sf http://db:5432; do sleep 2; done")).toBeNull();
    expect(flood("while true; do curl -sf https://api.example.com/ready && break; done")).toBeNull();
    expect(flood("while true; do candump -n 10 can0; done")).toBeNull();
    expect(flood("while true; do date; done")).toBeNull();
    expect(flood("ping -c 4 example.com")).toBeNull();
  });
  it("stays linear on long adversarial input", () => {
    const long = "while true; do ".repeat(20_000) + "for((;;))".repeat(10_000) + " ping -a -b -c".repeat(10_000);
    const t0 = cpuMs();
    flood(long);
    expect(cpuMs() - t0).toBeLessThan(2000);
  });
});

describe("sec23: a login handed back", () => {
  const values = (t: string) => returnedLogins(t).map((f) => t.slice(f.start, f.end));
  it("finds an account and its password side by side, in words or as variables, in several languages", () => {
    expect(values("Retried with user billing@clinic.example and password Rx8#kT2mVq on the relay.")).toEqual(["Rx8#kT2mVq"]);
    expect(values("FTP_USER=upload-bot FTP_PASS=Wq7!zN3pLx")).toEqual(["Wq7!zN3pLx"]);
    expect(values("ftp-user: scans ftp-pass: Sc4n$2026box")).toEqual(["Sc4n$2026box"]);
    expect(values("usuario caja02 contraseña Caja#2026pv")).toEqual(["Caja#2026pv"]);
  });
  it("passes a default, a placeholder, a sealed value, a plain word and a name alone", () => {
    expect(values("Factory default: user admin password admin1234")).toEqual([]);
    expect(values("user: you@company.com password: <your password>")).toEqual([]);
    expect(values("username: orders\npassword: AgC4kLm9Qx2Vb7Nw3Rt8Yz1Hs6Jd5Fg0Pq4Wm2Xn8Kc3Lv7Bt9Zr1Ys5Gh6Df0Ja2QeZ")).toEqual([]);
    expect(values("user alice password forgotten")).toEqual([]);
    expect(values("The user reception2 has no password yet.")).toEqual([]);
  });
  it("stays linear on long adversarial input", () => {
    const long = ("smtp_user=a" + "b".repeat(60) + " x_pass ").repeat(800) + "user ".repeat(5_000);
    const t0 = cpuMs();
    returnedLogins(long);
    returnedLogins("user " + "a.".repeat(30_000));
    expect(cpuMs() - t0).toBeLessThan(2000);
  });
});
