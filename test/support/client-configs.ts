import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EVERYTHING } from "../helpers.js";

/*
 * One config per client, in its real format and at its real Linux location under a temporary HOME (and project
 * folder): comments where the format allows them, keys guardwire does not know, a remote server, Claude Code's
 * per-project entries, a Codex TOML. The stdio servers are real: server-everything.
 */

const node = JSON.stringify(process.execPath);
const everything = JSON.stringify(EVERYTHING);

export function clientFiles(home: string, project: string): Record<string, string> {
  return {
    [join(home, ".config", "Claude", "claude_desktop_config.json")]: `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "everything": {
      "command": ${node},
      "args": [${everything}, "stdio"],
      "env": { "EVERYTHING_TOKEN": "kept" }
    },
    "handwrapped": {
      "command": "npx",
      "args": ["guardwire", "wrap", "--log", "/tmp/x.ndjson", "--", "npx", "-y", "some-server"]
    }
  }
}
`,
    [join(home, ".claude.json")]: `{
  "numStartups": 12,
  "mcpServers": {
    "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {} }
  },
  "projects": {
    ${JSON.stringify(project)}: {
      "allowedTools": [],
      "mcpServers": {
        "local-fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] },
        "linear": { "type": "sse", "url": "https://mcp.linear.app/sse" }
      },
      "hasTrustDialogAccepted": true
    },
    "/elsewhere": { "allowedTools": ["Bash"] }
  },
  "userID": "abc"
}
`,
    [join(home, ".cursor", "mcp.json")]: `{
  "mcpServers": {
    "git": { "command": "uvx", "args": ["mcp-server-git"], "cwd": "/src/repo", "disabled": false },
    "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer x" } }
  }
}
`,
    [join(project, ".cursor", "mcp.json")]: `{
\t"mcpServers": {
\t\t"proj": { "command": "./server.sh" }
\t}
}
`,
    [join(home, ".config", "Code", "User", "mcp.json")]: `// VS Code user MCP servers
{
  "inputs": [{ "type": "promptString", "id": "token", "password": true }],
  "servers": {
    // the fetch server
    "fetch": {
      "type": "stdio",
      "command": "uvx", // runs from PyPI
      "args": ["mcp-server-fetch"],
    },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
  },
}
`,
    [join(home, ".config", "Code", "User", "settings.json")]: `{
  "editor.fontSize": 14,
  /* older place for servers */
  "mcp": {
    "servers": {
      "time": { "command": "uvx", "args": ["mcp-server-time"] }
    }
  }
}
`,
    [join(project, ".vscode", "mcp.json")]: `{
  // workspace servers
  "servers": {
    "everything": { "type": "stdio", "command": ${node}, "args": [${everything}, "stdio"], "envFile": "\${workspaceFolder}/.env" }
  }
}
`,
    [join(home, ".codeium", "windsurf", "mcp_config.json")]: `{
  "mcpServers": {
    "puppeteer": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-puppeteer"], "disabledTools": [] },
    "docs": { "serverUrl": "https://docs.example.com/mcp" }
  }
}
`,
    [join(home, ".gemini", "settings.json")]: `{
  "theme": "Dracula",
  // Gemini CLI reads comments too
  "mcpServers": {
    "python": { "command": "python", "args": ["-m", "my_server"], "cwd": "./tools", "timeout": 30000, "trust": false },
    "stream": { "httpUrl": "https://stream.example.com/mcp" }
  }
}
`,
    [join(home, ".codex", "config.toml")]: `# Codex settings
model = "o3"  # the model

[mcp_servers.everything]
# the reference server
command = ${node}
args = [${everything}, "stdio"] # trailing comment
env = { "EVERYTHING_TOKEN" = "kept" }
startup_timeout_sec = 20

[mcp_servers.remote]
url = "https://example.com/mcp"

[profiles.fast]
model = "o4-mini"
`,
  };
}

export function writeClientFiles(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
