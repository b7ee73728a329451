/** The exit codes of every `feedback` command, documented in `feedback --help` and docs/cli.md. */
export const EXIT = {
  ok: 0,
  /** Unexpected failure or server error. */
  error: 1,
  /** Bad usage or invalid input (a 400). */
  usage: 2,
  /** The thing named does not exist (a 404). */
  notFound: 3,
  /** Missing or invalid API key (a 401), or a public key where a secret key is needed (a 403). */
  auth: 4,
  /** Rate limited (a 429). */
  rateLimited: 5,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  unexpected error or server error
  2  usage error or invalid input (HTTP 400)
  3  not found (HTTP 404)
  4  authentication failed (HTTP 401), or the command needs a secret key (HTTP 403)
  5  rate limited (HTTP 429)`;

/** The messages per field of a server's 400, carried to `--json` error output as they came. */
export interface ErrorDetails {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

/** Marks a CliError, whichever copy of this module made it (see hasInstance below). */
const CLI_ERROR = Symbol.for('@feedbackd/cli:CliError');

/** A failure the user can act on: printed as one sentence, exits with its code, no stack. */
export class CliError extends Error {
  readonly [CLI_ERROR] = true;

  /**
   * `instanceof` by mark rather than by class: the API commands load their SDK half on first use
   * (a dynamic import), and a host that runs this code as CommonJS (a test runner on tsx) then
   * holds two copies of this module, whose classes would not know each other's errors.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && CLI_ERROR in value;
  }

  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
