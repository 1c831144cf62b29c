/*
 * (Fifteenth round, "cps15") Sensitive paths of the infrastructure itself: the files where network gear, telephony,
 * monitoring and security tooling keep the secrets they share with their peers (docs/detection.md, "Fifteenth round:
 * infrastructure's shared secrets, commands that destroy without a filter"). Called by paths.ts's sensitiveKind after
 * the older families, on a path already in its judged form. Each family is a service's folder and the role of a file
 * in it, not one product's path:
 *
 * - **a network service's shared secrets**: RADIUS servers' client, proxy and user files (FreeRADIUS' `clients.conf`,
 *   `proxy.conf`, `users`, `mods-config/files/authorize`, its SQL and LDAP modules' logins), an access point's
 *   `hostapd*.conf`, `*.wpa_psk`, `*.eap_user`, OpenWrt's `/etc/config/wireless`, strongSwan's `swanctl.conf` and
 *   `conf.d`, racoon's `psk.txt`, TACACS+'s `tac_plus*.conf`, an SNMP agent's `snmpd.conf` (communities and USM keys),
 *   BIND's `rndc.conf`, Windows' stored Wi-Fi profiles (`ProgramData\Microsoft\Wlansvc\Profiles`);
 * - **a fleet's configuration store**: a firewall's whole configuration (pfSense's and OPNsense's `/conf/config.xml`
 *   and its backups), UniFi's backups (`*.unf`), RANCID's `.cloginrc` and Oxidized's `config` (every device's login),
 *   phones' provisioning files by MAC address (`SEP<mac>.cnf.xml`, `<mac>.cfg`: each phone's SIP password), PRTG's
 *   `PRTG Configuration.dat`;
 * - **telephony's secrets**: Asterisk's peer, manager, voicemail and database files (`sip*.conf`, `pjsip*.conf`,
 *   `iax.conf`, `manager*.conf`, `voicemail.conf`, `res_odbc.conf`, `cdr_*.conf`), FreePBX's `freepbx.conf` and
 *   `amportal.conf`, FreeSWITCH's `vars.xml`, user directory and event socket, Kamailio's `kamctlrc`, OpenSIPS'
 *   `opensipsctlrc`;
 * - **monitoring and SOC tools' secrets**: Splunk's `local` `outputs.conf`, `server.conf`, `authentication.conf`,
 *   Wazuh's and OSSEC's `client.keys` and `authd.pass`, OpenSearch security's `internal_users.yml`, Graylog's
 *   `server.conf`, MISP's `app/Config` PHP files, Velociraptor's `server.config.yaml`, Salt pillars' `secrets.sls`,
 *   Zabbix's server and proxy configuration, its web `zabbix.conf.php` and `*.psk` files, Nagios' and Icinga's
 *   `resource.cfg`, Icinga's `api-users.conf` and `resources.ini`, Grafana's `grafana.db`, NetBox's
 *   `configuration.py`;
 * - **a PHP web app's site settings under a web root**: `*.settings.php` (CiviCRM), `settings.local.php`,
 *   `config.inc.php` (phpMyAdmin, Roundcube), `config/database.php` (CodeIgniter, CakePHP).
 *
 * Benign guards: these are system paths, so a relative path (a project's or a configuration repository's own copy, a
 * template) passes, and so do samples, examples, defaults and templates (`default.settings.php`,
 * `config.sample.inc.php`, `*.j2`). The same services' other files pass: logs, dial plans (`extensions.conf`), a
 * RADIUS server's `radiusd.conf` and sites, an agent's `ossec.conf`, Splunk's `default` folders, dashboards.
 *
 * A path is split into at most 64 segments once; every test is a comparison per segment or a regex on one segment.
 */

const SAMPLE = /(?:^|[-_.])(?:example|examples|sample|samples|template|templates|dist|tmpl|tpl|default|defaults|orig|j2|erb|in)(?:[-_.]|$)/i;

/** A path from a root (Unix, the home, a drive). */
const ABSOLUTE = /^(?:\/|~[/\\]|\$\{?HOME\}?[/\\]|%[A-Z_]{2,20}%[/\\]|[A-Za-z]:[/\\])/;

/**
 * (Phase 2) Registry keys where remote-access tools keep saved sessions and passwords (`reg query`, `Get-ItemProperty`,
 * `reg export`): WinSCP's and PuTTY's and KiTTY's sessions, VNC servers' passwords, OpenSSH's agent keys. The tools'
 * other keys (PuTTY's host keys, WinSCP's configuration) pass.
 */
const REGISTRY_SESSIONS = /^(?:HKCU|HKLM|HKU|HKEY_CURRENT_USER|HKEY_LOCAL_MACHINE|HKEY_USERS)(?::|\\)(?:\\)?(?:[^\\]{1,80}\\){0,2}Software\\(?:Wow6432Node\\)?(?:Martin Prikryl\\WinSCP 2\\Sessions|SimonTatham\\PuTTY\\Sessions|9bis\.com\\KiTTY\\Sessions|TightVNC\\Server|RealVNC\\(?:WinVNC4|vncserver)|ORL\\WinVNC3|OpenSSH\\Agent\\Keys|FTPWare\\COREFTP\\Sites|Ghisler\\Total Commander)(?:\\[^\\]{0,120}){0,3}\\?$/i;

interface Family {
  /** The file's role, by its name. */
  file: RegExp;
  /** The service's folder: the file's own folder or an ancestor up to six levels above it. */
  dir: RegExp;
  /** The file sits directly in that folder. */
  direct?: boolean;
  /** The folder just above the service's folder (`Wlansvc\Profiles`, `/etc/config`). */
  parent?: RegExp;
  /** A folder somewhere above the service's folder (Splunk's `local`, OSSEC's `etc`). */
  within?: RegExp;
  /** The service's folder is this many segments from the root (`/conf/config.xml`: 1). */
  depth?: readonly number[];
}

const FAMILIES: readonly Family[] = [
  // A network service's shared secrets.
  { dir: /^(?:freeradius|raddb)$/i, file: /^(?:clients\.conf|proxy\.conf|users|authorize|sql|ldap|mschap|huntgroups)$/i },
  { dir: /^hostapd$/i, file: /^(?:[\w.-]{0,40}\.conf|[\w.-]{0,40}\.(?:wpa_psk|psk|eap_user|radius_clients))$/i },
  { dir: /^etc$/i, direct: true, file: /^(?:hostapd[\w.-]{0,40}\.conf|tac_plus[\w.-]{0,20}\.(?:conf|cfg)|rndc\.conf|freepbx\.conf|amportal\.conf)$/i },
  { dir: /^config$/i, direct: true, parent: /^etc$/i, file: /^wireless$/i },
  { dir: /^(?:swanctl|strongswan)$/i, file: /^(?:swanctl\.conf|[\w.-]{1,60}\.secrets|[\w.-]{1,60}\.conf)$/i },
  { dir: /^racoon$/i, file: /^psk\.txt$/i },
  { dir: /^(?:tacacs\+?|tac_plus(?:-ng)?)$/i, file: /^[\w.+-]{1,60}\.(?:conf|cfg)$/i },
  { dir: /^(?:snmp|net-snmp)$/i, direct: true, file: /^(?:snmpd|snmptrapd)\.conf$/i },
  { dir: /^bind\d?$/i, file: /^rndc\.conf$/i },
  { dir: /^wlansvc$/i, direct: true, file: /^profiles$/i },
  { dir: /^profiles$/i, parent: /^wlansvc$/i, file: /^(?:profiles|interfaces|\{[0-9a-f-]{8,40}\}|[\w{}-]{1,60}\.xml)$/i },
  // A fleet's configuration store.
  { dir: /^conf$/i, depth: [1, 2], file: /^config(?:-[\w.-]{1,60})?\.xml$/i },
  { dir: /^oxidized$/i, file: /^(?:config|router\.db)$/i },
  { dir: /^(?:tftp|tftpboot|tftproot|provisioning|prov)$/i, file: /^(?:SEP[0-9A-F]{12}\.cnf\.xml|(?:spa)?[0-9a-f]{12}(?:-phone)?\.(?:cfg|xml)|y0{6}[0-9]{6}\.cfg)$/i },
  // Telephony's secrets.
  { dir: /^asterisk$/i, file: /^(?:sip|pjsip|iax|manager|sip_custom|pjsip_custom|pjsip\.[\w-]{1,40}|sip_additional|iax_additional|manager_additional|manager_custom|voicemail|res_odbc|res_pgsql|res_config_mysql|cdr_mysql|cdr_pgsql|cdr_odbc|cel_odbc)\.conf$/i },
  { dir: /^freeswitch$/i, file: /^(?:vars\.xml|event_socket\.conf\.xml)$/i },
  { dir: /^directory$/i, within: /^freeswitch$/i, file: /^[\w.@+-]{1,80}\.xml$/i },
  { dir: /^(?:kamailio|opensips)$/i, file: /^(?:kamctlrc|opensipsctlrc|opensips-cli\.cfg)$/i },
  // Monitoring and SOC tools' secrets.
  { dir: /^local$/i, direct: true, within: /^(?:splunk|splunkforwarder)$/i, file: /^(?:outputs|server|authentication|authorize|deploymentclient)\.conf$/i },
  { dir: /^etc$/i, direct: true, within: /^(?:ossec|wazuh)$/i, file: /^(?:client\.keys|authd\.pass)$/i },
  { dir: /^(?:opensearch-security|securityconfig|wazuh-indexer|opensearch)$/i, file: /^internal_users\.ya?ml$/i },
  { dir: /^server$/i, direct: true, parent: /^graylog$/i, file: /^server\.conf$/i },
  { dir: /^graylog$/i, direct: true, file: /^server\.conf$/i },
  { dir: /^config$/i, direct: true, within: /^misp$/i, file: /^(?:database|config|email)\.php$/i },
  { dir: /^config$/i, direct: true, parent: /^(?:application|app)$/i, file: /^database\.php$/i },
  { dir: /^[\w.-]{1,60}$/i, direct: true, file: /^(?:server\.config\.ya?ml|secrets\.sls)$/i },
  { dir: /^zabbix$/i, file: /^(?:zabbix_(?:server|proxy)[\w.-]{0,20}\.conf|zabbix\.conf\.php|[\w.-]{1,60}\.psk)$/i },
  { dir: /^(?:nagios\d?|naemon|icinga2?|shinken)$/i, file: /^resource\.cfg$/i },
  { dir: /^icinga2$/i, file: /^api-users\.conf$/i },
  { dir: /^icingaweb2$/i, file: /^(?:resources|authentication)\.ini$/i },
  { dir: /^grafana$/i, file: /^grafana\.db$/i },
  { dir: /^netbox$/i, file: /^configuration\.py$/i },
  { dir: /^(?:prtg network monitor|paessler)$/i, file: /^prtg configuration\.(?:dat|old|nul)$/i },
  // (Phase 2) Remote-access and database clients' saved sessions, where their passwords are stored recoverably.
  { dir: /^mremoteng$/i, direct: true, file: /^confcons[\w.-]{0,40}\.xml$/i },
  { dir: /^sessions$/i, within: /^(?:vandyke|securecrt|xshell|xftp|kitty|netsarang)$/i, file: /^[^/\\]{1,120}\.(?:ini|xsh|xfp)$/i },
  { dir: /^[^/\\]{1,80}$/, direct: true, file: /^(?:mobaxterm\.ini|[\w .-]{1,80}\.mxtsessions|winscp\.ini|\.mylogin\.cnf|remmina\.pref|[\w .-]{1,80}\.rdg|[\w .-]{1,80}\.rtsz|sessions\.dat|asbru\.ya?ml|pac\.ya?ml)$/i },
  { dir: /^remmina$/i, file: /^[\w .-]{1,120}\.remmina$/i },
  { dir: /^sessions$/i, parent: /^\.putty$/i, file: /^[^/\\]{1,120}$/ },
  // (Phase 2) Mail and DNS signing keys: OpenDKIM's and DNSSEC's `*.private`, every file of a DKIM keys folder but the
  // published record (`*.txt`, `*.pub`).
  { dir: /^(?:etc|var|srv|opt|usr)$/i, file: /^[\w.+@-]{1,160}\.private$/i },
  { dir: /^(?:dkim|dkimkeys|opendkim|dkim-keys)$/i, file: /^[\w.+@-]{1,160}\.(?:key|pem|private|priv)$/i },
  // A PHP web app's site settings, under a web root.
  { dir: /^[\w.-]{1,80}$/i, direct: true, within: /^(?:www|htdocs|public_html|wwwroot|html|roundcube(?:mail)?|phpmyadmin|webapps|sites)$/i, file: /^(?:[\w-]{1,40}\.settings\.php|settings\.local\.php|config\.inc\.php)$/i },
  { dir: /^phpmyadmin$/i, direct: true, file: /^config\.inc\.php$/i },
];

/** The kind of sensitive path one of these families finds, or null. */
export function networkKind(p: string): string | null {
  if (p.length > 4096) return null;
  if (/^HK/i.test(p) && REGISTRY_SESSIONS.test(p)) return "sensitive_path.credential_file";
  if (!ABSOLUTE.test(p)) return null;
  const seg = p.split(/[/\\]/, 64);
  const base = seg[seg.length - 1] as string;
  if (base === "" || SAMPLE.test(base.replace(/\.[^.]{1,12}$/, ""))) return null;
  // RANCID's logins and UniFi's backups, by their names anywhere from a root.
  if (/^\.cloginrc$/i.test(base) || /^[\w.-]{1,120}\.unf$/i.test(base)) return "sensitive_path.credential_file";
  for (const f of FAMILIES) {
    if (!f.file.test(base)) continue;
    const last = f.direct ? seg.length - 2 : Math.max(0, seg.length - 8);
    for (let i = seg.length - 2; i >= last; i--) {
      if (!f.dir.test(seg[i] as string)) continue;
      if (f.parent && !f.parent.test(seg[i - 1] ?? "")) continue;
      if (f.depth && !(seg[0] === "" && f.depth.includes(i) && (i === 1 || /^cf$/i.test(seg[1] ?? "")))) continue;
      if (f.within && !seg.slice(0, i).some((s) => (f.within as RegExp).test(s))) continue;
      return "sensitive_path.credential_file";
    }
  }
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter), besides those it has already. */
export const NETWORK_HINTS = ["radius", "raddb", "hostapd", "/etc/config/wireless", "swanctl", "strongswan", "racoon", "tac_plus", "tacacs", "snmp", "rndc", "wlansvc", "config.xml", "oxidized", "cloginrc", ".unf", "tftp", "provisioning", "asterisk", "freepbx", "amportal", "freeswitch", "kamailio", "opensips", "splunk", "client.keys", "authd.pass", "internal_users", "graylog", "misp", "database.php", "server.config", "secrets.sls", "zabbix", "resource.cfg", "api-users", "icingaweb2", "grafana.db", "netbox", "prtg", "settings.php", "config.inc.php", "mremoteng", "vandyke", "securecrt", "xshell", "kitty", "mobaxterm", "mxtsessions", "winscp", "mylogin", "remmina", ".rdg", ".rtsz", "asbru", ".putty", ".private", "dkim", "hkcu", "hklm", "hkey_", "ossec", "wazuh", "/conf/", "wireless"];
