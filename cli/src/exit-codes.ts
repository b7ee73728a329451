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

/** A failure the user can act on: printed as one sentence, exits with its code, no stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
