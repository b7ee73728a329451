import type { EntityManager } from '@mikro-orm/postgresql';
import { BoardBrandFieldsSchema, type SortBy } from '@feedbackd/sdk/contract';
import { accentProblem, normalColour } from './brand/accent.js';
import { checkLogo, InvalidLogoError } from './brand/logo.js';
import { change, type BoardOf, type BoardSetting } from './board-settings.service.js';

/**
 * What `feedback board brand` and PATCH /api/v1/board change: a field left out keeps its value,
 * null clears it (the name, which every project has, cannot be cleared). The logo is its bytes.
 */
export interface BoardBrand {
  name?: string | undefined;
  description?: string | null | undefined;
  accent?: string | null | undefined;
  defaultSort?: SortBy | null | undefined;
  logo?: Buffer | null | undefined;
  /** The pages' default language (one of BOARD_LOCALES); null: English. */
  locale?: string | null | undefined;
}

/** A brand field refused, with the field's name (the API's 400 names it) and why. */
export class InvalidBrandError extends Error {
  constructor(
    readonly field: keyof BoardBrand,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidBrandError';
  }
}

/** The text fields as the contract checks them, so the CLI's input meets the API's rules. */
const TEXT_FIELDS = BoardBrandFieldsSchema.omit({ logo: true });

/**
 * Changes a board's brand, in one flush: every field is checked first (the contract's rules; the
 * accent's contrast in the light theme, domain/projects/brand/accent.ts; the logo's size and type by its
 * bytes, domain/projects/brand/logo.ts), so a refused field changes nothing.
 */
export async function setBoardBrand(em: EntityManager, which: BoardOf, brand: BoardBrand): Promise<BoardSetting> {
  const { logo, ...texts } = brand;
  const parsed = TEXT_FIELDS.safeParse(texts);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidBrandError(issue.path[0] as keyof BoardBrand, issue.message);
  }
  const fields = parsed.data;
  const accent = typeof fields.accent === 'string' ? normalColour(fields.accent)! : fields.accent;
  const problem = typeof accent === 'string' ? accentProblem(accent) : undefined;
  if (problem) throw new InvalidBrandError('accent', problem);
  let checked;
  try {
    checked = logo ? checkLogo(logo) : logo;
  } catch (error) {
    if (error instanceof InvalidLogoError) throw new InvalidBrandError('logo', error.message);
    throw error;
  }
  return change(em, which, (project) => {
    if (fields.name !== undefined) project.name = fields.name;
    // An empty description is no description.
    if (fields.description !== undefined) project.boardDescription = fields.description || null;
    if (accent !== undefined) project.boardAccent = accent;
    if (fields.defaultSort !== undefined) project.boardDefaultSort = fields.defaultSort;
    if (fields.locale !== undefined) project.boardLocale = fields.locale;
    if (checked === null) {
      Object.assign(project, { boardLogo: null, boardLogoType: null, boardLogoHash: null, boardLogoWidth: null, boardLogoHeight: null });
    } else if (checked !== undefined) {
      Object.assign(project, { boardLogo: checked.bytes, boardLogoType: checked.type, boardLogoHash: checked.hash, boardLogoWidth: checked.width, boardLogoHeight: checked.height });
    }
  }, logo !== undefined);
}
