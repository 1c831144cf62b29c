import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { destructiveSql, judgeCommandLine } from "../../src/guardian/detectors/commands.js";
import { remoteRootOpened } from "../../src/guardian/detectors/commands-opened.js";
import { neighbourSource } from "../../src/guardian/detectors/paths-benign.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, nineteenth round ("cp19"): docs/detection.md, "Nineteenth round: commands that open a host or write one value on every row ("cp19")". */

describe("cp19: a drop that takes its dependants", () => {
  it("judges DROP TABLE … CASCADE of a live table, alone or in a list", () => {
    expect(destructiveSql("DROP TABLE invoices CASCADE;")).toMatch(/CASCADE/);
    expect(destructiveSql("DROP TABLE a, b CASCADE")).toMatch(/CASCADE/);
  });
  it("passes a guarded, a scratch or a test drop, and a drop without CASCADE", () => {
    expect(destructiveSql("DROP TABLE IF EXISTS invoices CASCADE;")).toBeNull();
    expect(destructiveSql("DROP TABLE tmp_invoices CASCADE;")).toBeNull();
    expect(destructiveSql("DROP TABLE dev_invoices CASCADE;")).toBeNull();
    expect(destructiveSql("SELECT 'drop table x cascade' AS note;")).toBeNull();
  });
});

describe("cp19: one destination of money written on every row", () => {
  it("judges an unscoped UPDATE of a routing or account column to a literal", () => {
    expect(destructiveSql("UPDATE payouts SET routing_number='021000021';")).toMatch(/every row/);
    expect(judgeCommandLine("mysql live -e 'UPDATE ledger SET bic=\"DEUTDEFF\";'").length).toBe(1);
  });
  it("passes a scoped or computed update", () => {
    expect(destructiveSql("UPDATE payouts SET routing_number='021000021' WHERE id=7;")).toBeNull();
    expect(destructiveSql("UPDATE payouts SET account = upper(account);")).toBeNull();
    expect(judgeCommandLine("mysql shop -e 'UPDATE items SET note=1 WHERE sku=4'")).toEqual([]);
  });
});

describe("cp19: the SSH server's root login switched on", () => {
  const judge = (s: string) => remoteRootOpened(s.toLowerCase());
  it("judges the setting written on by sed, tee or a redirection", () => {
    expect(judge("sed -i 's/^#?PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config")).not.toBeNull();
    expect(judge("echo PermitEmptyPasswords yes | tee -a /etc/ssh/sshd_config")).not.toBeNull();
    expect(judge("echo 'PermitRootLogin yes' >> /etc/ssh/sshd_config")).not.toBeNull();
  });
  it("passes reading the setting and hardening it", () => {
    expect(judge("grep 'PermitRootLogin yes' /etc/ssh/sshd_config")).toBeNull();
    expect(judge("sed -i 's/PermitRootLogin yes/PermitRootLogin no/' /etc/ssh/sshd_config")).toBeNull();
    expect(judge("echo 'PermitRootLogin no' >> /etc/ssh/sshd_config")).toBeNull();
    expect(judge("PermitRootLogin yes is unsafe; see sshd_config(5)")).toBeNull();
  });
  it("stays linear on long adversarial input", () => {
    const long = "sed -i sshd_config " + "permitrootlogin yes permitrootlogin ".repeat(20_000) + "> ".repeat(20_000);
    const t0 = cpuMs();
    judge(long);
    destructiveSql("DROP TABLE a" + ", b".repeat(20_000) + " CASCADE");
    destructiveSql("UPDATE t SET " + "account='1', ".repeat(5_000));
    expect(cpuMs() - t0).toBeLessThan(2000);
  });
});

describe("cp19: a climb judged by what it reaches", () => {
  it("passes a neighbouring package's source file", () => {
    expect(neighbourSource("../../src/lib/retry.js")).toBe(true);
    expect(neighbourSource("..\\..\\packages\\core\\index.ts")).toBe(true);
  });
  it("keeps climbs to hidden folders, system roots, configuration, or three levels", () => {
    expect(neighbourSource("../../.aws/credentials")).toBe(false);
    expect(neighbourSource("../../etc/app/main.py")).toBe(false);
    expect(neighbourSource("../../app/config/db.php")).toBe(false);
    expect(neighbourSource("../../../src/lib/retry.js")).toBe(false);
    expect(neighbourSource("../../wp-load.php")).toBe(false);
  });
  it("stays fast on a long path", () => {
    const t0 = cpuMs();
    neighbourSource("../../" + "a.".repeat(300));
    neighbourSource("../../" + "ab/".repeat(200) + "x.js");
    expect(cpuMs() - t0).toBeLessThan(500);
  });
});

describe("cp19: corpus", () => {
  it("holds every case of cp19.test.yaml", () => {
    const s = runTestFiles("test/fixtures/corpus/cp19.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(25);
  });
});
