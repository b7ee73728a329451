/** `feedback export` and `feedback import`: a project's data as JSON Lines, and back (docs/transfer.md). */
export { DUMP_FORMAT, DUMP_VERSION, RECORD_TYPES, DumpFormatError, parseHeader as parseDumpHeader, type DumpCounts, type DumpHeader, type RecordType } from './format.js';
export { exportDump, type ExportOptions, type ExportSummary } from './export.js';
export { dumpLines, importDump, ImportConflictError, type ImportOptions, type ImportSummary, type TransferProgress } from './import.js';
export type { ProjectOutcome, VoterSaltOutcome } from './import-projects.js';
