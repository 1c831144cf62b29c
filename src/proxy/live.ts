import type { AgentProtocol } from "../vocabulary.js";
import type { Downstream } from "../transports/types.js";
import type { Peer, PeerInfo, Stage } from "./pipeline.js";

/** A live session as live control (src/control) holds it: what it lists, and how it suspends and kills it. */
export interface SessionLink {
  session: { readonly id: string; readonly serverInfo: PeerInfo | null; use(stage: Stage): () => void };
  route: string;
  transport: string;
  protocol: AgentProtocol;
  agent: string | null;
  /** Where heartbeats of held requests go (the agent's side); whether it is idle. */
  downstream: Peer & Pick<Downstream, "idle">;
  /** The id names a caller whose exchanges come and go (A2A, stateless MCP): a suspension outlasts them. */
  shared?: boolean;
  /** Answers what is pending and closes both ends; called once, by kill. */
  kill(message: string): void;
}

/** Where sessions are registered for live control (docs/sessions.md); returns the unregister. */
export interface LiveSessions {
  register(link: SessionLink): () => void;
}
