export interface Tool {
  name: string;
  apt: string;
  brew: string;
  why: string;
  at?: (env?: NodeJS.ProcessEnv, platform?: string) => string;
}
export interface Missing extends Tool {
  where?: string;
  sbin?: string;
}
export type Plan = { action: "run" } | { action: "install"; packages: string[] } | { action: "stop"; lines: string[] };
export function chromiumPath(env?: NodeJS.ProcessEnv, platform?: string): string;
export const TOOLS: Tool[];
export function findMissing(o?: { env?: NodeJS.ProcessEnv; platform?: string; executable?: (path: string) => boolean }): Missing[];
export function decide(o: { missing: Missing[]; uid: number; debian: boolean; aptGet: boolean }): Plan;
