import { describe, expect, it } from "vitest";
import { cpuMs } from "../support/cpu.js";
import { judgeCommandLine } from "../../src/guardian/detectors/commands.js";
import { CATALOG_TEXT_CHECKS } from "../../src/guardian/detectors/commands-catalog.js";
import { sensitiveKind } from "../../src/guardian/detectors/paths.js";
import { catalogKind } from "../../src/guardian/detectors/paths-catalog.js";

/* Sixteenth round (issue 24, "cps16"): commands and paths from the public catalogues and products' credential files. */

const types = (line: string) => judgeCommandLine(line).map((f) => f.type);

describe("commands from the public catalogues (commands-catalog.ts)", () => {
  it("finds GTFOBins escapes run as root, SUID bits on shells, archivers told to run programs", () => {
    for (const l of ["sudo vim -c ':!/bin/sh'", "sudo gdb -nx -ex '!sh' -ex quit", "sudo sqlite3 /dev/null '.shell /bin/sh'", "sudo flock -u / /bin/sh", "sudo nmap --interactive", "tar -cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec=/bin/sh", "ssh -o ProxyCommand=';sh 0<&2 1>&2' x", "chmod 4755 /usr/bin/find", "chmod u+s /tmp/.x/bash"]) expect(types(l), l).toContain("dangerous_command.privilege_escalation");
    for (const l of ["sudo vim /etc/hosts", "sudo find /opt/app -name '*.sh' -exec sh -c 'chmod +x \"$1\"' _ {} \\;", "tar -cf b.tar --checkpoint=1000 --checkpoint-action=dot data/", "ssh -o ProxyCommand='ssh -W %h:%p bastion' db01", "chmod 2775 /srv/shared", "chmod 4755 build/bin/helper"]) expect(types(l), l).not.toContain("dangerous_command.privilege_escalation");
  });

  it("finds log wiping and credential searches, not routine cleanup or a repo's search", () => {
    for (const l of ["echo > /var/log/auth.log", "truncate -s 0 /var/log/wtmp", "rm -rf /var/log/*", "journalctl --vacuum-time=1s", "wevtutil el | ForEach-Object { wevtutil cl \"$_\" }"]) expect(types(l), l).toContain("dangerous_command.history_tamper");
    for (const l of ["sudo truncate -s 0 /var/log/nginx/access.log", "sudo rm -f /var/log/syslog.2.gz", "journalctl --vacuum-time=7d", "wevtutil qe Security /c:10"]) expect(types(l), l).not.toContain("dangerous_command.history_tamper");
    for (const l of ["grep -ri password /home /etc 2>/dev/null", "findstr /S /I cpassword \\\\corp.local\\sysvol\\corp.local\\policies\\*.xml", "kubectl get secrets -A -o yaml"]) expect(types(l), l).toContain("dangerous_command.credential_dump");
    for (const l of ["grep -rn password src/", "grep -r PasswordAuthentication /etc/ssh/sshd_config", "kubectl -n argocd get secret argocd-initial-admin-secret -o jsonpath='{.data.password}'", "kubectl get secrets -A"]) expect(types(l), l).not.toContain("dangerous_command.credential_dump");
  });

  it("stays linear on long adversarial lines", () => {
    const lines = ["sudo vim " + "-c x ".repeat(4000), "chmod 4755 " + "a/".repeat(8000), "echo " + "/tmp/ ".repeat(4000) + "> /etc/x", "grep -r password " + "/ ".repeat(8000), "Get-ChildItem C:\\ " + "-Recurse ".repeat(3000), "net user a b /add " + "x ".repeat(8000)];
    for (const l of lines) {
      const t = cpuMs();
      for (const c of CATALOG_TEXT_CHECKS) {
        c.re.lastIndex = 0;
        c.re.exec(l);
      }
      expect(cpuMs() - t, l.slice(0, 20)).toBeLessThan(400);
    }
  });
});

describe("products' credential files (paths-catalog.ts)", () => {
  it("finds CLIs', mail clients', runners' and database clients' stores", () => {
    for (const p of ["~/.config/scw/config.yaml", "~/.vultr-cli.yaml", "~/.yarnrc.yml", "/run/user/1000/containers/auth.json", "~/.config/helm/registry/config.json", "~/.mbsyncrc", "~/.config/aerc/accounts.conf", "~/.vnc/passwd", "/home/runner/actions-runner/.credentials", "/etc/buildkite-agent/buildkite-agent.cfg", "~/.config/JetBrains/DataGrip2024.2/c.pwd", "~/.cassandra/cqlshrc", "project/sftp-config.json", "~/.local/share/TelegramDesktop/tdata/key_datas", "/etc/dovecot/users", "/var/lib/sss/db/cache_corp.local.ldb", "/proc/*/environ", "C:\\Users\\amy\\NTUSER.DAT"]) expect(sensitiveKind(p), p).not.toBeNull();
    for (const p of ["project/.yarnrc.yml", "~/projects/web/.yarnrc.yml", "~/.config/helm/repositories.yaml", "dotfiles/mutt/muttrc.example", "~/.config/mutt/colors.muttrc", "/etc/dovecot/dovecot.conf", "~/.config/JetBrains/IntelliJIdea2024.2/options/editor.xml", "~/.pgadmin/pgadmin4.log", "docs/sftp-config.example.json", "~/Downloads/Telegram Desktop/photo.jpg", "/proc/cpuinfo"]) expect(catalogKind(p), p).toBeNull();
  });

  it("stays linear on long adversarial paths", () => {
    const long = "~/" + ".config/".repeat(500) + "x".repeat(100);
    const t = cpuMs();
    for (let i = 0; i < 50; i++) catalogKind(long);
    expect(cpuMs() - t).toBeLessThan(500);
  });
});
