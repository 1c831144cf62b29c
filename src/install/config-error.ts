/** A config file that cannot be read as its format: where, and why. Such a file is reported and never written. */
export class ConfigSyntaxError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${path}:${line}:${column}: ${reason}`);
    this.name = "ConfigSyntaxError";
  }
}

/** A config file guardwire can read but not change safely (a layout it does not edit): it is left as it was. */
export class ConfigEditError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}; the file is left as it was`);
    this.name = "ConfigEditError";
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
