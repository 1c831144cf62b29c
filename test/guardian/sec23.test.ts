import { describe, expect, it } from "vitest";
import { judgeCommandLine } from "../../src/guardian/detectors/commands.js";
import { endlessSend } from "../../src/guardian/detectors/commands-flood.js";
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
