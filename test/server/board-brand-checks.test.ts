import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  accentProblem,
  accentStyle,
  checkLogo,
  contrast,
  DARK_THEME,
  darkThemeAccent,
  LIGHT_THEME,
  LOGO_MAX_BYTES,
  MIN_CONTRAST,
  normalColour,
} from '@feedbackd/server/testing';
import { gifHeader, HOSTILE_SVG, jpegHeader, png, webpHeader } from '../helpers/images.js';

/** The brand's checks alone (admin/brand/): contrast by WCAG's formula, and a logo known by its bytes. */

const CSS = readFileSync(new URL('../../server/src/web/board/static/board.css', import.meta.url), 'utf8');

/** A custom property of board.css's light (first) or dark (in the prefers-color-scheme block) :root. */
function cssColour(name: string, theme: 'light' | 'dark'): string {
  const dark = CSS.indexOf('@media (prefers-color-scheme: dark)');
  const part = theme === 'light' ? CSS.slice(0, dark) : CSS.slice(dark);
  return new RegExp(`--${name}: (#[0-9a-f]{6});`).exec(part)![1]!;
}

describe('board brand checks', () => {
  it('when the accent module names the themes\' colours, then they are board.css\'s own (the contrast is checked against what the page draws)', () => {
    for (const [theme, colours] of [['light', LIGHT_THEME], ['dark', DARK_THEME]] as const) {
      expect(colours.bg, theme).to.equal(cssColour('bg', theme));
      expect(colours.panel, theme).to.equal(cssColour('panel', theme));
      expect(colours.accentFg, theme).to.equal(cssColour('accent-fg', theme));
    }
    expect(accentProblem(cssColour('accent', 'light')), "the board's own accent passes its own check").to.equal(undefined);
    expect(darkThemeAccent(cssColour('accent', 'dark'))).to.equal(cssColour('accent', 'dark'));
  });

  it('when contrasts are computed, then they follow WCAG (black on white 21:1, a colour on itself 1:1) and colours are normalised', () => {
    expect(contrast('#000000', '#ffffff')).to.equal(21);
    expect(contrast('#777777', '#777777')).to.equal(1);
    expect(contrast('#767676', '#ffffff')).to.be.closeTo(4.54, 0.01);
    expect(normalColour('#0A7')).to.equal('#00aa77');
    expect(normalColour(' #0b5cad ')).to.equal('#0b5cad');
    for (const bad of ['0a7', '#0a', '#0a77', 'red', '#ggg', 'url(x)']) expect(normalColour(bad), bad).to.equal(undefined);
  });

  it('when an accent is too light for the light theme, then the problem says its ratio and a darker colour of the same hue that passes', () => {
    const problem = accentProblem('#00aa77')!;
    expect(problem).to.match(/contrast of 2\.\d\d:1 against the panels \(#f6f8fa\)/);
    expect(problem).to.include('WCAG AA needs 4.5:1');
    const suggested = /try the darker (#[0-9a-f]{6})/.exec(problem)![1]!;
    expect(accentProblem(suggested), 'the suggestion passes').to.equal(undefined);
    expect(contrast(suggested, LIGHT_THEME.panel)).to.be.at.least(MIN_CONTRAST);
  });

  it('when an accent passes the light theme but not the dark one, then the dark theme gets a lighter colour that reaches 4.5:1 on its page, panels and button text', () => {
    const dark = darkThemeAccent('#0b5cad');
    expect(dark).not.to.equal('#0b5cad');
    for (const against of [DARK_THEME.bg, DARK_THEME.panel, DARK_THEME.accentFg]) expect(contrast(dark, against), against).to.be.at.least(MIN_CONTRAST);
    const style = accentStyle('#0b5cad')!;
    expect(style).to.equal(`:root{--accent:#0b5cad;--accent-fg:#ffffff}@media (prefers-color-scheme: dark){:root{--accent:${dark};--accent-fg:#0d1117}}`);
    expect(accentStyle('#00aa77'), 'a stored colour that fails (written by hand) is not used').to.equal(undefined);
    expect(accentStyle('red;}body{display:none'), 'nor text that is not a colour').to.equal(undefined);
  });

  it('when logos are checked, then PNG, JPEG, WebP and GIF are known by their bytes with their size, and SVG, other files and oversized ones are refused', () => {
    expect(checkLogo(png(120, 40))).to.include({ type: 'image/png', width: 120, height: 40 });
    expect(checkLogo(jpegHeader(300, 100))).to.include({ type: 'image/jpeg', width: 300, height: 100 });
    expect(checkLogo(webpHeader(64, 32))).to.include({ type: 'image/webp', width: 64, height: 32 });
    expect(checkLogo(gifHeader(16, 16))).to.include({ type: 'image/gif', width: 16, height: 16 });
    expect(checkLogo(png(2, 2)).hash).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(() => checkLogo(HOSTILE_SVG)).to.throw(/SVG logos are refused/);
    expect(() => checkLogo(Buffer.from('  <svg xmlns="http://www.w3.org/2000/svg"/>'))).to.throw(/SVG logos are refused/);
    expect(() => checkLogo(Buffer.from('%PDF-1.7 not an image'))).to.throw(/not a PNG, JPEG, WebP or GIF/);
    expect(() => checkLogo(Buffer.alloc(0))).to.throw(/empty/);
    const big = png(1, 1, [0, 0, 0], LOGO_MAX_BYTES);
    expect(big.length).to.be.above(LOGO_MAX_BYTES);
    expect(() => checkLogo(big)).to.throw(/at most 256 KB/);
    expect(checkLogo(png(1, 1, [0, 0, 0], LOGO_MAX_BYTES - 200)).type, 'just under the limit').to.equal('image/png');
  });
});
