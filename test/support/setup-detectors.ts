// Tests that judge in process wait for the detectors to load, as every guardwire command does (src/cli/main.ts).
import { detectorsReady } from "../../src/guardian/detectors/index.js";

await detectorsReady();
