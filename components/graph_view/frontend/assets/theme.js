// Theme: Streamlit's light or dark colours, read from the CSS variables it sets on an
// ancestor of the component, and data colours made readable on a dark background.

function parseHex(color) {
  if (typeof color !== "string" || color[0] !== "#") return null;
  let hex = color.slice(1);
  if (hex.length === 3) hex = hex.split("").map((c) => c + c).join("");
  if (hex.length !== 6 || !/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function parseColor(color) {
  const hex = parseHex(color);
  if (hex) return hex;
  const m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(String(color || "").trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

function toHex(rgb) {
  return "#" + rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

// On a dark background, a colour too close to it is mixed towards white until it stands
// out (min contrast ratio `min`); other colours, and every colour on a light theme, stay.
export function readable(theme, color, min) {
  if (!theme.dark) return color;
  const key = `${color}|${min}`;
  const known = theme.cache.get(key);
  if (known !== undefined) return known;
  const rgb = parseHex(color);
  let out = color;
  if (rgb && contrast(rgb, theme.bg) < min) {
    let mixed = rgb;
    for (let t = 0.15; t <= 1.0001 && contrast(mixed, theme.bg) < min; t += 0.15) {
      mixed = rgb.map((v) => v + (255 - v) * t);
    }
    out = toHex(mixed);
  }
  theme.cache.set(key, out);
  return out;
}

// `color` at `alpha` of its opacity, as rgba() (unchanged when it cannot be read).
export function withAlpha(color, alpha) {
  const rgb = parseColor(color);
  return rgb ? `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${alpha})` : color;
}

// Faces that cover Chinese, Japanese and Korean where the system has one, tried (glyph by
// glyph) before the generic family: canvas text finds no other fallback on some systems.
export const CJK_FACES = ['"Noto Sans CJK SC"', '"Noto Sans CJK JP"', '"Noto Sans SC"',
  '"Source Han Sans SC"', '"PingFang SC"', '"Hiragino Sans"', '"Microsoft YaHei"',
  '"Malgun Gothic"', '"WenQuanYi Micro Hei"'];
const GENERIC = new Set(["serif", "sans-serif", "monospace", "cursive", "fantasy",
  "system-ui", "ui-sans-serif", "ui-serif"]);

// The theme's font stack with CJK_FACES before its generic family.
export function withCjk(stack) {
  const faces = String(stack || "").split(",").map((f) => f.trim()).filter(Boolean);
  const named = faces.filter((f) => !GENERIC.has(f.replace(/["']/g, "").toLowerCase()));
  const generic = faces.filter((f) => GENERIC.has(f.replace(/["']/g, "").toLowerCase()));
  return named.concat(CJK_FACES, generic.length ? generic : ["sans-serif"]).join(", ");
}

export function themeColors(el) {
  const css = getComputedStyle(el);
  const text = css.getPropertyValue("--st-text-color").trim() || "#31333F";
  const background = css.getPropertyValue("--st-background-color").trim() || "#FFFFFF";
  const primary = css.getPropertyValue("--st-primary-color").trim() || "#FF4B4B";
  const font = withCjk(css.getPropertyValue("--st-font").trim() || "sans-serif");
  const bg = parseColor(background) || [255, 255, 255];
  return {
    text, background, primary, font, bg, dark: luminance(bg) < 0.2,
    key: `${text}|${background}|${primary}|${font}`, cache: new Map(),
  };
}

// Streamlit passes its theme as CSS variables on an ancestor of the component; a theme
// switch changes that ancestor's class, and `onChange` is called when the colours differ.
export function watchTheme(state, onChange) {
  const root = state.parentElement.getRootNode();
  const host = root && root.host ? root.host : state.parentElement;
  const targets = [host, host.parentElement, host.parentElement && host.parentElement.parentElement]
    .filter(Boolean);
  state.themeObserver = new MutationObserver(() => {
    const theme = themeColors(state.container);
    if (theme.key !== state.theme.key) onChange();
  });
  for (const el of targets) {
    state.themeObserver.observe(el, { attributes: true, attributeFilter: ["class", "style"] });
  }
}
