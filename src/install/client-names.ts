/** The MCP clients install, uninstall, doctor and scan know, by the name `--client` takes. */
export const CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "gemini", "codex"] as const;
export type ClientName = (typeof CLIENTS)[number];
