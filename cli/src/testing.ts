/**
 * @feedbackd/cli/testing: what the project's own tests drive inside the CLI (its commands in this
 * process, its output helpers). Not a public API: the CLI is used through its `feedback` command.
 */
export { buildProgram, commandsFor, main } from './index.js';
export { jsonText, truncate, visible, type Output } from './output.js';
export { renderProgress } from './progress-bar.js';
export { databaseOnThisMachine, defaultWorkers } from './workers.js';
