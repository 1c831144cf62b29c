/** guardwire as a library: the guardian, the session that runs it over any pair of peers, and the decision log. */
export { EmbeddedGuardian, type EmbeddedGuardianOptions } from "./guardian/embedded.js";
export type { Guardian } from "./guardian/guardian.js";
export { buildAosRequest, type AosRequest, type AosResponse, type AosResult } from "./guardian/aos.js";
export { evaluate, type Decision, type MessageContext } from "./guardian/evaluate.js";
export { loadRules, readRuleSources, formatProblem, type RuleProblem, type RuleSource } from "./guardian/rules/load.js";
export type { CompiledRuleSet } from "./guardian/rules/compile.js";
export { readVerdict, type Verdict } from "./guardian/verdict.js";
export { renderBlock } from "./actions/render.js";
export { Session, type SessionOptions, type Peer, type Frame, type DecisionSink } from "./proxy/session.js";
export { launchStdio, type LauncherOptions } from "./proxy/stdio-launcher.js";
export { DecisionLog, type DecisionLogOptions } from "./decision-log/writer.js";
export { verifyChain, verifyFiles } from "./decision-log/verify.js";
export type { DecisionInput, DecisionRecord } from "./decision-log/record.js";
export { ErrorCode } from "./protocol/json-rpc.js";
export { GuardwireError, type GuardwireErrorCode } from "./errors.js";
