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

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
