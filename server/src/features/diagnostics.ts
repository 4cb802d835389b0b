// All findings of a snapshot, as the editor and the CLI ask for them: the incremental engine (engine/evaluate.ts)
// does the work.

export { diagnosticsFor, diagnosticsFromScratch, maxFindingsPerFile, prepareIncremental, runRules } from '../engine/evaluate';
