/*
 * (Ninth round) An encoded PowerShell command that only reads and prints.
 *
 * `-EncodedCommand` takes a script as base64 of UTF-16LE. Attackers use it to hide a download cradle; CI systems and
 * build agents use it to get a script past a shell's quoting unharmed. The encoding hides nothing from a reader that
 * decodes it, so what counts is what the script does. The command judge keeps refusing every encoded command, except
 * one whose script decodes cleanly and is made only of statements that read and print (a fixed list of cmdlets and
 * aliases: write or echo a line, list a folder, count, sort, select, format, test a path, show the date or a
 * process), with none of what turns text into code or reaches the network: no script block or subexpression
 * (`{`, `$(`), no call operator (`&`, a leading `.`), no .NET type (`[`), no escape character (the backtick), no
 * redirection to a file, no `Invoke-…`, `iex`, `Start-…`, `Set-…`, `Remove-…` or any cmdlet outside the list. Reading
 * a file's contents is left out too (`Get-Content` of a key would then travel encoded). Anything else encoded stays a
 * finding: an attacker gains nothing here that the same script typed in clear would not give.
 *
 * Linear: one base64 decode of at most 8 KB, one pass over the statements.
 */

const READ_AND_PRINT = new Set([
  "write-output", "write-host", "write-verbose", "write-information", "echo", "write",
  "get-childitem", "gci", "ls", "dir",
  "measure-object", "measure",
  "select-object", "select", "sort-object", "sort", "format-table", "ft", "format-list", "fl", "format-wide", "fw",
  "out-string", "out-host", "out-null", "out-default",
  "get-date", "get-location", "pwd", "gl", "get-process", "gps", "ps", "get-service", "gsv", "get-command", "gcm",
  "get-host", "get-culture", "get-uptime", "get-psdrive", "gdr", "get-volume", "get-computerinfo", "get-hotfix",
  "test-path", "resolve-path", "rvpa", "split-path", "join-path", "get-filehash",
  "where-object", "where", "group-object", "group", "compare-object", "convertto-json", "convertto-csv", "exit",
]);

/** Whether `b64` is an encoded PowerShell script that only reads and prints (see above). */
export function readOnlyEncodedPowerShell(b64: string): boolean {
  if (b64.length < 8 || b64.length > 8192 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length % 2 !== 0) return false;
  const script = bytes.toString("utf16le");
  // Decoded cleanly: printable characters, tabs and line ends only.
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffd) return false;
  }
  return readOnlyScript(script);
}

/** A read of a harmless automatic variable's properties (see readOnlyScript). */
const AUTOMATIC_READ = /^\$(?:PSVersionTable|Host|PSEdition|PSHOME|PSCulture|PSUICulture|IsWindows|IsLinux|IsMacOS|env:[A-Za-z_][A-Za-z0-9_]{0,40})(?:\.[A-Za-z][A-Za-z0-9]{0,40}){0,4}(?:\.ToString\(\))?$/i;

/** A script made only of read-and-print statements, with nothing that runs text as code. */
function readOnlyScript(script: string): boolean {
  if (/[{}[`&<>]|\$\(|@\(/.test(script)) return false;
  let statements = 0;
  for (const statement of script.split(/[;\n\r]/)) {
    for (const stage of statement.split("|")) {
      const s = stage.trim();
      if (s === "") continue;
      if (++statements > 32) return false;
      // (Thirteenth round, "cps13") Printing a property of PowerShell's own version or host, or an environment
      // variable (`$PSVersionTable.PSVersion.ToString()`, what CI tools pass to learn which PowerShell runs): a fixed
      // set of read-only automatic variables, property names, and at most a closing `.ToString()`. Not
      // `$ExecutionContext` (it runs scripts) nor any other variable (one assigned earlier could hold anything).
      if (AUTOMATIC_READ.test(s)) continue;
      const word = /^[A-Za-z][A-Za-z-]{0,40}/.exec(s);
      if (!word || !READ_AND_PRINT.has(word[0].toLowerCase())) return false;
      // Its own arguments: words, paths, quoted text and variables; no parenthesised expression.
      if (/[()]/.test(s)) return false;
    }
  }
  return statements > 0;
}
