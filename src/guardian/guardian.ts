import type { AosRequest, AosResponse } from "./aos.js";

/**
 * One interface for every guardian: embedded (in process), remote (AOS over HTTP), chain.
 * The embedded guardian answers synchronously (without a store, always), so the hot path pays for no promise when it
 * does not have to.
 */
export interface Guardian {
  call(request: AosRequest): AosResponse | Promise<AosResponse>;
  close?(): Promise<void>;
}
