import type { Locale } from './locales.js';
import { ar } from './messages/ar.js';
import { de } from './messages/de.js';
import { en, type Catalogue } from './messages/en.js';
import { es } from './messages/es.js';
import { fr } from './messages/fr.js';
import { ja } from './messages/ja.js';
import { ptBR } from './messages/pt-BR.js';

/** Every locale's messages (a locale without its catalogue does not compile). */
export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, fr, de, es, 'pt-BR': ptBR, ar, ja };
