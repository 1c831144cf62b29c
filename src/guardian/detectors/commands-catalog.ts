/*
 * (Sixteenth round, "cps16") Commands from the public technique catalogues, written from the catalogues' entries and
 * the programs' own grammar before any case was read (docs/detection.md, "Sixteenth round: commands and paths from the
 * public catalogues"): GTFOBins (shell escapes run as root, SUID bits, reverse-shell forms), LOLBAS (Windows binaries
 * that download, inject, dump memory or run script code), SigmaHQ's process_creation rules (Linux, macOS, Windows) and
 * Atomic Red Team's credential-access and defense-evasion tests. Each check is the *structure* a technique needs —
 * what it must name or do to work — not an example's words; the benign form of the same program (ping's own SUID bit,
 * `--checkpoint-action=dot`, `certutil -decode` of a certificate, ArgoCD's documented one-secret read, `insmod` of a
 * module built in the working folder, `chattr -i /etc/resolv.conf`) stays outside each pattern.
 *
 * Every check is a linear, bounded regex over a command site's text (commands.ts's TEXT_CHECKS), with a literal the
 * text must hold before the regex runs.
 */

export interface CatalogCheck {
  type: string;
  detail: string;
  /** Literals (lower case), one of which the text must hold, in any case, before the regex runs. */
  needs: string | readonly string[];
  re: RegExp;
}

/** `sudo`/`doas` and its options, before a program (bounded). */
const SUDO = String.raw`\b(?:sudo|doas)\s{1,4}(?:-[A-Za-z-]{1,20}(?:\s{1,4}[\w.@-]{1,40})?\s{1,4}){0,3}(?:\S{0,60}/)?`;
/** A shell, by path or name. */
const SH = String.raw`(?:/usr)?(?:/bin/)?(?:ba|z|da|k|c|tc|mk|a)?sh\b`;
/** A folder where dropped payloads live: temporary and shared-memory folders, or a hidden folder. */
const STAGED = String.raw`(?:/(?:tmp|dev/shm|var/tmp|run/shm)/|/\.[\w-]{1,40}/)`;

export const CATALOG_TEXT_CHECKS: CatalogCheck[] = [
  // ---- GTFOBins: a program's own escape to a shell, run as root (sudo rights on the program become a root shell).
  {
    type: "dangerous_command.privilege_escalation",
    detail: "a program run as root escapes to a shell (GTFOBins sudo function)",
    needs: ["sudo", "doas"],
    re: new RegExp(
      String.raw`${SUDO}(?:vim?|nvim|view|rvim|vimdiff|ex|gdb|sqlite3|mysql|psql|ftp|less|more|man|git|journalctl|systemctl|nmap|find|flock|taskset|setarch|strace|ltrace|unshare|stdbuf|capsh|ionice|chrt|rlwrap|watch|xargs|script|run-parts|start-stop-daemon|python[\d.]{0,5}|perl|ruby|lua|php|node|awk|gawk|mawk|expect|tclsh|wish)\b[^\n&|]{0,200}?(?:['"]?:?!\s{0,3}${SH}|\.(?:shell|system)\s{1,4}${SH}|(?:os\.(?:system|exec\w{0,3})|pty\.spawn|subprocess\.\w{1,12}|exec|system|spawn)\s{0,2}\(?\s{0,2}\[?["']${SH}|\s--interactive\b|\s${SH}(?:\s{1,4}-[pil]{1,3})?\s{0,4}(?:$|[;&|'"])|-exec(?:dir)?\s{1,4}${SH}(?:\s{1,4}-p)?\s{1,4}\\?;)`,
      "gi",
    ),
  },
  {
    type: "dangerous_command.privilege_escalation",
    detail: "nmap's interactive mode run as root (a root shell by `!sh`)",
    needs: "interactive",
    re: new RegExp(String.raw`${SUDO}nmap\s{1,4}--interactive\b`, "gi"),
  },
  // A terminal upgrade of a shell a socket was given (pty.spawn of a shell): the first step after a reverse shell.
  {
    type: "dangerous_command.reverse_shell",
    detail: "spawns a shell on a pseudo-terminal (pty.spawn), the upgrade of a remote shell",
    needs: "pty",
    re: new RegExp(String.raw`\bpty\.spawn\s{0,2}\(\s{0,2}\[?\s{0,2}["']${SH}`, "gi"),
  },
  // tar's checkpoint action and zip's test command run any program; only the exec form (not `dot`, `echo`, `ttyout`).
  {
    type: "dangerous_command.privilege_escalation",
    detail: "an archiver told to run a program (tar --checkpoint-action=exec, zip -TT)",
    needs: ["checkpoint-action", "-tt", "unzip-command"],
    re: /--checkpoint-action[= ]["']?exec=|\bzip\b[^\n;&|]{0,200}\s(?:-TT|--unzip-command)[= ]\s{0,2}["']?(?:\/usr)?(?:\/bin\/)?(?:ba|z|da)?sh\b/g,
  },
  // A shell whose input and output are the terminal's error stream: GTFOBins' form for ssh ProxyCommand, rsync -e,
  // git's pager and every program that runs a given command line.
  {
    type: "dangerous_command.privilege_escalation",
    detail: "runs a shell bound to the terminal through another program (`sh 0<&2 1>&2`)",
    needs: "0<&2",
    re: new RegExp(String.raw`${SH}\s{1,4}0<&2\s{1,4}1>&2`, "g"),
  },
  // ---- SUID and capabilities: the set-user-ID bit on a shell, an interpreter or a GTFOBins program, or on a copy in a
  // temporary or hidden folder. ping's, sudo's or passwd's own bit (a packaging fix) is not these programs.
  {
    type: "dangerous_command.privilege_escalation",
    detail: "sets the set-user-ID bit on a shell, an interpreter or a program that runs commands",
    needs: "chmod",
    re: new RegExp(
      String.raw`\bchmod\s{1,4}(?:-[A-Za-z]{1,4}\s{1,4}){0,2}(?:[4-7][0-7]{3}|[ugoa]{0,3}\+[rwx]{0,3}s[rwx]{0,3})\s{1,4}(?:"|')?(?:(?:\S{0,120}/)?(?:(?:ba|z|da|k|c|tc|mk|a)?sh|python[\d.]{0,5}|perl[\d.]{0,5}|ruby|php[\d.]{0,4}|node|lua[\d.]{0,4}|env|find|vim?|nano|less|more|awk|gawk|nmap|cp|mv|tar|zip|dd|tee|xargs|busybox|socat|nc|ncat|gdb|strace|docker|bash\.\w{1,8})(?:"|')?(?=$|[\s;&|])|${STAGED}\S{1,120})`,
      "gi",
    ),
  },
  // ---- Persistence: a scheduler's or a login's entry that runs a staged payload or a download.
  {
    type: "dangerous_command.persistence",
    detail: "writes a scheduled or boot-time entry that runs a staged payload or a download",
    needs: "/etc/",
    re: new RegExp(
      String.raw`(?:echo|printf)\s{1,4}[^\n;&|>]{0,300}?(?:${STAGED}|\b(?:curl|wget)\s|/dev/tcp/)[^\n;&|>]{0,200}(?:>{1,2}|\|\s{0,4}(?:sudo\s{1,4})?tee\s{1,4}(?:-a\s{1,4})?)\s{0,4}["']?(?:/etc/(?:cron\.(?:d|hourly|daily|weekly|monthly)/|crontab\b|rc\.local\b|init\.d/|profile\.d/|systemd/system/|update-motd\.d/)|/var/spool/cron/)`,
      "gi",
    ),
  },
  // A kernel module loaded from a temporary or hidden folder (rootkits land there; a module built in the working
  // folder is `./x.ko`).
  {
    type: "dangerous_command.persistence",
    detail: "loads a kernel module from a temporary or hidden folder",
    needs: ".ko",
    re: new RegExp(String.raw`\b(?:insmod|modprobe)\s{1,4}(?:-\w{1,4}\s{1,4}){0,3}["']?${STAGED}\S{0,120}\.ko\b`, "gi"),
  },
  // The dynamic loader told to preload a library from a temporary or hidden folder.
  {
    type: "dangerous_command.privilege_escalation",
    detail: "preloads a library from a temporary or hidden folder into a program (LD_PRELOAD)",
    needs: "ld_preload",
    re: new RegExp(String.raw`\bLD_PRELOAD=["']?${STAGED}\S{0,120}\.so\b`, "g"),
  },
  // PAM told to accept any password (pam_permit as sufficient), or the backdoor module line written into PAM's stack.
  {
    type: "dangerous_command.persistence",
    detail: "writes pam_permit into the login stack (any password accepted)",
    needs: "pam_permit",
    re: /(?:pam_permit\.so[^\n]{0,200}(?:>{1,2}|\btee\b)[^\n]{0,40}\/etc\/pam\.d\/|\bsed\s[^\n]{0,40}-i[^\n]{0,200}pam_permit[^\n]{0,200}\/etc\/pam\.d\/|\bsufficient\s{1,4}pam_permit\.so[^\n]{0,200}\/etc\/pam\.d\/)/gi,
  },
  // Immutability taken off the files that decide who logs in.
  {
    type: "dangerous_command.defense_evasion",
    detail: "takes the immutable flag off a login or privilege file",
    needs: "chattr",
    re: /\bchattr\s{1,4}(?:-R\s{1,4})?-[aei]{1,3}\s{1,4}(?:\S{0,60}\s{1,4}){0,3}["']?\/(?:etc\/(?:passwd|shadow|group|gshadow|sudoers(?:\.d\/\S{0,60})?|ld\.so\.preload|pam\.d\/\S{0,60}|ssh\/sshd_config)|root\/\.ssh\/authorized_keys)\b/gi,
  },
  // Timestamps of system programs or boot entries copied or set (timestomping hides a planted file).
  {
    type: "dangerous_command.defense_evasion",
    detail: "sets a system program's or a boot entry's timestamps (timestomping)",
    needs: "touch",
    re: /\btouch\s{1,4}(?:-[ac]{1,2}\s{1,4})?(?:-r\s{0,4}|--reference=|-t\s{1,4}|-d\s{1,4}|--date=)\S{1,120}\s{1,4}(?:-[ac]{1,2}\s{1,4})?["']?\/(?:s?bin|usr\/(?:s?bin|lib|local\/s?bin)|lib(?:64)?|etc\/(?:cron\S{0,20}|init\.d|systemd|pam\.d|profile\.d|rc\.local|ld\.so\.preload|ssh))\/?\S{0,120}/gi,
  },
  {
    type: "dangerous_command.defense_evasion",
    detail: "sets a program's creation or write time to a chosen date (timestomping)",
    needs: ["creationtime", "lastwritetime", "lastaccesstime"],
    re: /\.(?:exe|dll|sys|ps1|bat|vbs|scr)["']?\s{0,4}\)\s{0,4}\.(?:CreationTime|LastWriteTime|LastAccessTime)(?:Utc)?\s{0,4}=\s{0,4}(?:\[datetime\]\s{0,4})?["']?\d/gi,
  },
  // ---- Logs and journals emptied (Sigma: clear Linux logs; Atomic T1070.002).
  {
    type: "dangerous_command.history_tamper",
    detail: "empties or deletes the login and audit logs",
    needs: "/var/log",
    re: /(?:(?:^|[;&|(]\s{0,4}|\b(?:echo|printf|cat\s{1,4}\/dev\/null|true|:)\s{0,20})>\s{0,4}|\btruncate\s{1,4}(?:-s\s{0,4}0|--size[= ]0)\s{1,4}|\b(?:rm|shred|unlink)\s{1,4}(?:-[A-Za-z]{1,6}\s{1,4}){0,3}|\bcp\s{1,4}\/dev\/null\s{1,4})["']?\/var\/log\/(?:auth\.log|secure|wtmp|btmp|utmp|lastlog|faillog|audit\/audit\.log|messages|syslog)(?:\.\d)?(?=$|[\s;&|"'])/gi,
  },
  {
    type: "dangerous_command.history_tamper",
    detail: "deletes every log of the system",
    needs: "/var/log",
    re: /\b(?:rm|shred)\s{1,4}(?:-[A-Za-z]{1,6}\s{1,4}){1,3}["']?\/var\/log\/?(?:\*(?:\.\*)?)?["']?(?=$|[\s;&|])/gi,
  },
  {
    type: "dangerous_command.history_tamper",
    detail: "empties the system journal (vacuum to seconds or minutes)",
    needs: "vacuum",
    re: /\bjournalctl\b[^\n;&|]{0,100}--vacuum-time[= ]\d{1,4}(?:s|sec|second|seconds|m|min|minutes?)\b/gi,
  },
  {
    type: "dangerous_command.history_tamper",
    detail: "clears every Windows event log",
    needs: "wevtutil",
    re: /\bwevtutil(?:\.exe)?\s{1,4}(?:cl|clear-log)\s{1,4}["']?\$/gi,
  },
  {
    type: "dangerous_command.history_tamper",
    detail: "turns off the shell's history (set +o history)",
    needs: "history",
    re: /\bset\s{1,4}\+o\s{1,4}history\b/g,
  },
  {
    type: "dangerous_command.history_tamper",
    detail: "deletes the file system's change journal (fsutil usn deletejournal)",
    needs: "deletejournal",
    re: /\bfsutil(?:\.exe)?\s{1,4}usn\s{1,4}deletejournal\b/gi,
  },
  // ---- Credential access (Atomic T1552, T1555, T1003; Sigma).
  {
    type: "dangerous_command.credential_dump",
    detail: "searches a whole system or every home folder for passwords",
    needs: "pass",
    re: /\b(?:grep|egrep|rg|ag|ack)\s{1,4}(?:-[A-Za-z]{1,8}\s{1,4}|--[\w-]{1,30}(?:=\S{1,40})?\s{1,4}){0,5}["']?[^\s"']{0,20}(?:password|passwd|pwd|cpassword|passphrase|secret|credential)[^\s"']{0,20}["']?\s{1,4}(?:-[A-Za-z]{1,8}\s{1,4}){0,3}(?:["']?\/(?:etc|home|root|var|opt|Users|srv|mnt)?\/?["']?(?:\s{1,4}|$)){1,6}/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "searches the domain's policies (SYSVOL) or every file for stored passwords",
    needs: "pass",
    re: /\b(?:findstr(?:\.exe)?\s{1,4}(?:\/[A-Za-z]{1,3}\s{1,4}){0,4}["']?cpassword\b|findstr(?:\.exe)?\s{1,4}[^\n|&]{0,200}(?:sysvol|netlogon)|findstr(?:\.exe)?\s{1,4}(?:\/[A-Za-z]{1,3}\s{1,4}){0,4}\/s[A-Za-z]{0,3}\s{1,4}(?:\/[A-Za-z]{1,3}\s{1,4}){0,4}["']?(?:pass|password|pwd|passw)["']?\s{1,4}\*\.\w{1,8}\s{1,4}\*\.\w{1,8})/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "searches every file of a drive or every user's folder for passwords",
    needs: "select-string",
    re: /\b(?:Get-ChildItem|gci|ls|dir)\s{1,4}(?:-Path\s{1,4})?["']?[A-Za-z]:\\(?:Users\\?)?["']?\s[^\n]{0,300}-Recurse[^\n]{0,300}\|\s{0,4}(?:Select-String|sls)\s{1,4}(?:-Pattern\s{1,4})?["']?[^\s"']{0,10}(?:pass|password|pwd|cpassword|credential)/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "searches a drive or every user's folder for password databases and key files",
    needs: "recurse",
    re: /\b(?:Get-ChildItem|gci|ls|dir)\s{1,4}(?:-Path\s{1,4})?["']?[A-Za-z]:\\(?:Users\\?)?["']?\s[^\n]{0,300}-(?:Include|Filter)\s{1,4}[^\n]{0,80}\*\.(?:kdbx?|ppk|pfx|p12|keychain|psafe3|agilekeychain|opvault)\b/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "dumps every secret of every namespace of a cluster",
    needs: "kubectl",
    re: /\bkubectl\s{1,4}(?:[^\n;&|]{0,80}\s)?get\s{1,4}secrets?\b[^\n;&|]{0,120}(?:\s(?:-A|--all-namespaces)\b[^\n;&|]{0,120}\s-o\s{0,4}=?\s{0,4}["']?(?:ya?ml|json|jsonpath|go-template)|\s-o\s{0,4}=?\s{0,4}["']?(?:ya?ml|json|jsonpath|go-template)[^\n;&|]{0,120}\s(?:-A|--all-namespaces)\b)/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "dumps an authentication process's memory (sshd, sudo, keyrings, password managers)",
    needs: ["gcore", "gdb"],
    re: /\b(?:gcore|gdb\s{1,4}[^\n;&|]{0,80}(?:-p|--pid|attach))\s[^\n;&|]{0,120}(?:pgrep|pidof)\s{1,4}(?:-\w{1,3}\s{1,4}){0,2}(?:sshd|sshd-session|sudo|su|login|gnome-keyring-daemon|ssh-agent|gpg-agent|keepassxc|1password|bitwarden|polkitd|vault|lsass)\b/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "a signed Windows program told to write a process's full memory (LOLBAS dump functions)",
    needs: "fullmemdmp",
    re: /\brdrleakdiag(?:\.exe)?\s[^\n]{0,120}\/fullmemdmp\b/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "a signed Windows program told to dump the credential process's memory (LOLBAS dump functions)",
    needs: "lsass",
    re: /\b(?:createdump|sqldumper|dumpminitool|tttracer|rdrleakdiag)(?:\.exe)?\s[^\n]{0,200}\blsass\b|\blsass\b[^\n]{0,200}\b(?:createdump|sqldumper|dumpminitool|tttracer)(?:\.exe)?\s/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "a process's memory written with PowerSploit's Out-Minidump",
    needs: "out-minidump",
    re: /\bOut-Minidump\b/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "runs an offensive credential tool (Kerberoasting, password recovery, online guessing)",
    needs: ["rubeus", "lazagne", "kerberoast", "gpp", "invoke-", "secretsdump", "crackmapexec", "nxc", "netexec", "hydra", "medusa", "ncrack"],
    re: /\b(?:rubeus(?:\.exe)?\s{1,4}(?:kerberoast|asreproast|dump|tgtdeleg|harvest|monitor)|lazagne(?:\.exe|\.py)?\s{1,4}(?:all|browsers|mails|sysadmin|windows|wifi|memory|databases)\b|Invoke-Kerberoast|Get-GPPPassword|Get-GPPAutologon|Invoke-(?:SessionGopher|WCMDump|PowerDump|DCSync)|(?:impacket-)?secretsdump(?:\.py)?\s|(?:crackmapexec|nxc|netexec)\s[^\n]{0,200}\s--(?:sam|lsa|ntds|dpapi)\b|(?:hydra|medusa|ncrack)\s[^\n]{0,200}\s-P\s{1,4}\S{0,200}(?:rockyou|passwords?|wordlist|darkweb|common|top)\S{0,60})/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "lists the saved Windows credentials with their secrets (vaultcmd)",
    needs: "vaultcmd",
    re: /\bvaultcmd(?:\.exe)?\s{1,4}\/listcreds:/gi,
  },
  // macOS: the browsers' Safe Storage key (it decrypts every saved browser password), a shadow hash read, a fake
  // password prompt.
  {
    type: "dangerous_command.credential_dump",
    detail: "reads a browser's Safe Storage key from the keychain (it decrypts every saved browser password)",
    needs: "find-generic-password",
    re: /\bsecurity\s{1,4}find-generic-password\b[^\n;&|]{0,200}(?:Safe Storage|\s-w?a\s{1,4}["']?(?:Chrome|Chromium|Brave|Microsoft Edge|Edge|Opera|Vivaldi|Arc)\b)/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "reads an account's password hash (ShadowHashData)",
    needs: "shadowhash",
    re: /\b(?:dscl|defaults)\s[^\n;&|]{0,200}ShadowHashData\b/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "shows a fake password prompt (a dialog with a hidden answer)",
    needs: "hidden answer",
    re: /\bdisplay\s{1,4}dialog\b[^\n]{0,300}\bwith\s{1,4}hidden\s{1,4}answer\b/gi,
  },
  {
    type: "dangerous_command.persistence",
    detail: "sets a login or logout hook (a script run as root at every login)",
    needs: "loginwindow",
    re: /\bdefaults\s{1,4}write\s{1,4}\S{0,60}com\.apple\.loginwindow\S{0,10}\s{1,4}(?:LoginHook|LogoutHook)\b/gi,
  },
  {
    type: "dangerous_command.defense_evasion",
    detail: "writes the privacy permissions database (TCC.db)",
    needs: "tcc.db",
    re: /\bsqlite3\b[^\n;&|]{0,300}TCC\.db["']?\s[^\n]{0,100}\b(?:insert|update|replace|delete)\b/gi,
  },
  // ---- Accounts: a new account given a known password and admin rights in one line, a uid-0 account, root's password.
  {
    type: "dangerous_command.privilege_escalation",
    detail: "creates an account with a password given on the line and makes it an administrator",
    needs: ["/add", "-adduser", "new-localuser", "useradd"],
    re: /\b(?:net(?:\.exe)?\s{1,4}user\s{1,4}\S{1,60}\s{1,4}\S{1,100}\s{1,4}\/add\b[^\n]{0,300}\bnet(?:\.exe)?\s{1,4}localgroup\s{1,4}["']?(?:administrators|admins|domain admins|remote desktop users)["']?\s{1,4}\S{1,60}\s{1,4}\/add|sysadminctl\s[^\n]{0,200}-addUser\s[^\n]{0,200}-password\s[^\n]{0,200}-admin\b|sysadminctl\s[^\n]{0,200}-addUser\s[^\n]{0,200}-admin\b[^\n]{0,200}-password\s|New-LocalUser\b[^\n]{0,300}-Password\b[^\n]{0,400}Add-LocalGroupMember\s[^\n]{0,100}(?:-Group\s{1,4})?["']?Administrators\b|\buseradd\s[^\n;&|]{0,200}\s-p\s[^\n;&|]{0,200}\s-G\s{1,4}\S{0,40}\b(?:sudo|wheel|admin|root)\b|\buseradd\s[^\n;&|]{0,200}\s-G\s{1,4}\S{0,40}\b(?:sudo|wheel|admin|root)\b[^\n;&|]{0,200}\s-p\s)/gi,
  },
  {
    type: "dangerous_command.privilege_escalation",
    detail: "gives a macOS account user ID 0 (a second root)",
    needs: "uniqueid",
    re: /\bdscl\s{1,4}\S{1,40}\s{1,4}-(?:create|append)\s{1,4}\/Users\/\S{1,60}\s{1,4}UniqueID\s{1,4}0\b/gi,
  },
  {
    type: "dangerous_command.privilege_escalation",
    detail: "sets root's password",
    needs: "chpasswd",
    re: /\broot:[^\s|'"]{1,120}["']?\s{0,4}\|\s{0,4}(?:sudo\s{1,4})?chpasswd\b/gi,
  },
  // ---- LOLBAS: signed Windows programs that run or fetch code.
  {
    type: "dangerous_command.decode_execute",
    detail: "certutil decodes into a program or script",
    needs: "certutil",
    re: /\bcertutil(?:\.exe)?\s{1,4}(?:-f\s{1,4})?-decode(?:hex)?\s{1,4}\S{1,200}\s{1,4}["']?\S{0,200}\.(?:exe|dll|ps1|bat|cmd|vbs|js|hta|scr|msi|sct|jar)["']?(?=$|[\s;&|])/gi,
  },
  {
    type: "dangerous_command.download_execute",
    detail: "mshta runs inline script code",
    needs: "mshta",
    re: /\bmshta(?:\.exe)?\s{1,4}["']?(?:vbscript|javascript|about):/gi,
  },
  {
    type: "dangerous_command.download_execute",
    detail: "a downloaded response piped into a command interpreter (finger | cmd)",
    needs: "finger",
    re: /\bfinger(?:\.exe)?\s{1,4}\S{1,100}@\S{1,200}[^\n]{0,60}\|\s{0,4}(?:cmd|powershell|pwsh|sh|bash)\b/gi,
  },
  {
    type: "dangerous_command.download_execute",
    detail: "opens a compiled help file from a web address (hh.exe runs its scripts)",
    needs: ["hh.exe", "hh "],
    re: /\bhh(?:\.exe)?\s{1,4}["']?(?:https?|ftp|mk:@MSITStore:\\\\)/gi,
  },
  {
    type: "dangerous_command.download_execute",
    detail: "a signed Windows program told to load a library into another process (LOLBAS execute functions)",
    needs: ["mavinject", "wuauclt"],
    re: /\b(?:mavinject(?:32|64)?(?:\.exe)?\s{1,4}\d{1,7}\s{1,4}\/INJECTRUNNING\s|wuauclt(?:\.exe)?\s[^\n]{0,60}\/UpdateDeploymentProvider\s[^\n]{0,200}\/RunHandlerComServer)/gi,
  },
  {
    type: "dangerous_command.download_execute",
    detail: "a script host made to run a file of another type as script (//E:)",
    needs: "//e:",
    re: /\b(?:cscript|wscript)(?:\.exe)?\s[^\n]{0,60}\/\/E:(?:jscript|vbscript|jscript\.encode|vbscript\.encode)\s{1,4}["']?\S{0,200}\.(?:txt|log|dat|jpg|png|gif|ini|tmp|xml|csv|ads|bin|lnk|doc|pdf|\w{1,8}:\w{1,40})["']?(?=$|[\s;&|])/gi,
  },
  {
    type: "dangerous_command.defense_evasion",
    detail: "turns off PowerShell's malware scanning (AMSI)",
    needs: "amsi",
    re: /\b(?:AmsiUtils|amsiInitFailed|AmsiScanBuffer|amsiContext|amsiSession)\b/gi,
  },
  // Accessibility programs of the logon screen replaced by a shell (sticky-keys backdoor), by copy or by takeown.
  {
    type: "dangerous_command.persistence",
    detail: "replaces a logon-screen accessibility program (sticky keys backdoor)",
    needs: "system32",
    re: /\b(?:copy|xcopy|move|cp|mv|Copy-Item|Move-Item|takeown)(?:\.exe)?\s[^\n;&|]{0,200}\\system32\\(?:sethc|utilman|osk|narrator|magnify|displayswitch|atbroker)\.exe\b/gi,
  },
  // ESXi: every virtual machine powered off or killed, or unsigned binaries allowed (ransomware's preparation).
  {
    type: "dangerous_command.infrastructure_teardown",
    detail: "powers off or kills every virtual machine of an ESXi host",
    needs: ["vim-cmd", "esxcli"],
    re: /\b(?:vim-cmd\s{1,4}vmsvc\/getallvms\b[^\n]{0,200}vim-cmd\s{1,4}vmsvc\/power\.(?:off|shutdown)|esxcli\s{1,4}vm\s{1,4}process\s{1,4}list\b[^\n]{0,200}esxcli\s{1,4}vm\s{1,4}process\s{1,4}kill)/gi,
  },
  {
    type: "dangerous_command.defense_evasion",
    detail: "lets an ESXi host run unsigned programs (execInstalledOnly off)",
    needs: "execinstalledonly",
    re: /\besxcli\s[^\n;&|]{0,200}execInstalledOnly\s{1,4}(?:-v|--value)\s{1,4}(?:FALSE|0)\b/gi,
  },
  // ---- (Phase 2) Defender's protections turned off by text, wherever the call sits (a remote script block, a loop);
  // exclusions are judged by commands.ts (a build folder's passes).
  {
    type: "dangerous_command.defense_evasion",
    detail: "turns off Defender's protections",
    needs: "mppreference",
    re: /\bSet-MpPreference\b[^\n]{0,200}?-Disable(?:RealtimeMonitoring|IOAVProtection|BehaviorMonitoring|ScriptScanning|IntrusionPreventionSystem|BlockAtFirstSeen|ArchiveScanning|OnAccessProtection)\s{0,4}:?\s{0,4}(?:\$true|1)\b/gi,
  },
  // ---- (Phase 2) What preserves evidence or records removed: legal holds and retention policies (Microsoft Purview
  // and Exchange Online's documented cmdlets, Google Vault's GAM), object-lock retention bypassed or cleared (S3, Azure
  // Blob, Cloud Storage). A hold or policy named as a test or a demo passes.
  {
    type: "dangerous_command.recovery_delete",
    detail: "removes a legal hold or a retention policy (records the law says to keep become deletable)",
    needs: ["remove-", "litigationhold", "set-", "gam "],
    re: /\bRemove-(?:RetentionCompliancePolicy|RetentionComplianceRule|CaseHoldPolicy|CaseHoldRule|ComplianceCase|HoldCompliancePolicy|HoldComplianceRule|RetentionPolicy|ComplianceTag|MailboxSearch|AppRetentionCompliancePolicy)\b(?![^\n;|]{0,200}(?:test|demo|sandbox|pilot)\b)|-LitigationHoldEnabled\s{0,4}:?\s{0,4}\$?false\b|\bSet-(?:RetentionCompliancePolicy|CaseHoldPolicy|HoldCompliancePolicy|AppRetentionCompliancePolicy)\b[^\n]{0,200}-Enabled\s{0,4}:?\s{0,4}\$false\b|\bgam\s[^\n]{0,100}\bdelete\s{1,4}(?:hold|matter)\b|\bgam\s[^\n]{0,100}\bupdate\s{1,4}matter\s{1,4}\S{1,100}\s{1,4}action\s{1,4}(?:close|delete)\b/gi,
  },
  {
    type: "dangerous_command.recovery_delete",
    detail: "deletes or shortens locked objects by bypassing their retention (object lock, immutability, legal hold)",
    needs: ["bypass-governance", "legal-hold", "immutability-policy", "gsutil", "clear-retention"],
    re: /--bypass-governance-retention\b|x-amz-bypass-governance-retention\s{0,2}:\s{0,2}true|\baz\s{1,4}storage\s{1,4}container\s{1,4}(?:legal-hold\s{1,4}clear|immutability-policy\s{1,4}delete)\b|\bgsutil\s{1,4}retention\s{1,4}(?:clear|temp\s{1,4}release|event\s{1,4}release)\b|\bgcloud\s{1,4}storage\s{1,4}buckets\s{1,4}update\b[^\n]{0,200}--clear-retention-period\b/gi,
  },
  // ---- (Phase 2) Deleted data made unrecoverable: free space wiped in the same line as a delete (anti-forensics).
  {
    type: "dangerous_command.recursive_delete",
    detail: "deletes data and wipes the drive's free space so it cannot be recovered",
    needs: "cipher",
    re: /\b(?:Remove-Item|rd|rmdir|del|erase|rm)\b[^\n]{0,300}\bcipher(?:\.exe)?\s{1,4}\/w:|\bcipher(?:\.exe)?\s{1,4}\/w:[^\n]{0,300}\b(?:Remove-Item|rd|rmdir|del|erase)\s/gi,
  },
  // ---- (Phase 2) A cluster scheduler's documented forms for every node taken down, or its accounting deleted at once
  // (Slurm's `NodeName=ALL`, `sacctmgr -i delete`).
  {
    type: "dangerous_command.infrastructure_teardown",
    detail: "takes every node of the cluster down or deletes its accounting without a prompt",
    needs: ["scontrol", "sacctmgr"],
    re: /\bscontrol\s{1,4}update\s[^\n;&|]{0,100}\bNodeName=ALL\b[^\n;&|]{0,100}\bState=(?:DOWN|DRAIN|FAIL|POWER_DOWN)\b|\bscontrol\s{1,4}update\s[^\n;&|]{0,100}\bState=(?:DOWN|DRAIN|FAIL|POWER_DOWN)\b[^\n;&|]{0,100}\bNodeName=ALL\b|\bsacctmgr\s{1,4}(?:-\w{1,3}\s{1,4}){0,3}(?:-i|--immediate)\s{1,4}(?:-\w{1,3}\s{1,4}){0,3}(?:delete|remove)\s{1,4}(?:account|user|association|cluster|qos)\b/gi,
  },
];
