// All findings of a snapshot, as the editor and the CLI ask for them: the incremental engine (engine/evaluate.ts)
// does the work.

export {
  diagnosticsFor,
  diagnosticsFromScratch,
  diagnosticsSteps,
  evaluatedFindings,
  findingsInUnits,
  maxFindingsPerFile,
  prepareIncremental,
  prepareSteps,
  runRules,
} from '../engine/evaluate';
