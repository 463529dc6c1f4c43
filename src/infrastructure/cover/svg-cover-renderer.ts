import { createHash } from 'node:crypto';
import type { CoverRenderer, CoverSpec } from '../../application/reports/reports.ports.js';

const PALETTES: [string, string, string, string][] = [
  ['#0f172a', '#1e3a8a', '#38bdf8', '#f472b6'],
  ['#1f2937', '#065f46', '#34d399', '#fbbf24'],
  ['#2e1065', '#6d28d9', '#c084fc', '#22d3ee'],
  ['#431407', '#9a3412', '#fb923c', '#facc15'],
  ['#082f49', '#0e7490', '#67e8f9', '#a3e635'],
  ['#3f0d12', '#9f1239', '#fb7185', '#fde68a'],
];

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A deterministic stream of numbers in [0, 1) from a seed: the same topic and week, the same art. */
function randomFrom(seed: string): () => number {
  let buf = createHash('sha256').update(seed).digest();
  let i = 0;
  return () => {
    if (i + 4 > buf.length) {
      buf = createHash('sha256').update(buf).digest();
      i = 0;
    }
    const v = buf.readUInt32BE(i);
    i += 4;
    return v / 2 ** 32;
  };
}

/** The abstract cover as SVG: gradient, soft circles and arcs, topic name, tags and week label. */
export function coverSvg(spec: CoverSpec): string {
  const { width: w, height: h } = spec;
  const rnd = randomFrom(`${spec.topicName}|${spec.weekLabel}`);
  const [bg, mid, accent, spark] = PALETTES[Math.floor(rnd() * PALETTES.length)]!;
  const shapes: string[] = [];
  for (let k = 0; k < 7; k++) {
    const r = (0.12 + rnd() * 0.3) * h;
    shapes.push(
      `<circle cx="${(0.35 + rnd() * 0.7) * w}" cy="${rnd() * h}" r="${r.toFixed(0)}" fill="${k % 2 ? accent : spark}" fill-opacity="${(0.08 + rnd() * 0.2).toFixed(2)}"/>`,
    );
  }
  for (let k = 0; k < 5; k++) {
    const y = rnd() * h;
    shapes.push(
      `<path d="M ${w * 0.3} ${y.toFixed(0)} Q ${w * (0.5 + rnd() * 0.3)} ${(rnd() * h).toFixed(0)} ${w} ${(rnd() * h).toFixed(0)}" stroke="${accent}" stroke-opacity="0.35" stroke-width="${(2 + rnd() * 6).toFixed(1)}" fill="none"/>`,
    );
  }
  const font = 'DejaVu Sans, Noto Sans CJK TC, Noto Sans, Arial, sans-serif';
  let x = 96;
  const pills: string[] = [];
  for (const tag of spec.tags.slice(0, 6)) {
    const label = `#${clip(tag, 24)}`;
    const pw = 28 + label.length * 17;
    if (x + pw > w - 96) break;
    pills.push(
      `<rect x="${x}" y="${h - 190}" width="${pw}" height="52" rx="26" fill="#ffffff" fill-opacity="0.16"/>` +
        `<text x="${x + pw / 2}" y="${h - 155}" text-anchor="middle" font-family="${font}" font-size="28" fill="#ffffff">${esc(label)}</text>`,
    );
    x += pw + 16;
  }
  const title = clip(spec.topicName, 34);
  const titleSize = title.length > 22 ? 84 : 108;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>
${shapes.join('\n')}
<text x="96" y="150" font-family="${font}" font-size="34" letter-spacing="4" fill="#ffffff" fill-opacity="0.8">${esc(spec.weekLabel.toUpperCase())}</text>
<text x="96" y="${h / 2 + 20}" font-family="${font}" font-size="${titleSize}" font-weight="bold" fill="#ffffff">${esc(title)}</text>
${pills.join('\n')}
</svg>`;
}

/** The native renderer is loaded by the first cover, not at start (docs/decisions/0003-idle-memory.md). */
let resvg: Promise<typeof import('@resvg/resvg-js')> | undefined;

/** SVG rendered to PNG by resvg (a prebuilt native binary shipped in the npm package). */
export class SvgCoverRenderer implements CoverRenderer {
  async render(spec: CoverSpec): Promise<Buffer> {
    return this.toPng(coverSvg(spec), spec.width);
  }

  async fit(image: Buffer, size: { width: number; height: number }): Promise<Buffer> {
    const type = image.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) ? 'png' : 'jpeg';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size.width}" height="${size.height}"><image width="${size.width}" height="${size.height}" preserveAspectRatio="xMidYMid slice" xlink:href="data:image/${type};base64,${image.toString('base64')}"/></svg>`;
    return this.toPng(svg, size.width);
  }

  private async toPng(svg: string, width: number): Promise<Buffer> {
    const { Resvg } = await (resvg ??= import('@resvg/resvg-js'));
    const renderer = new Resvg(svg, {
      fitTo: { mode: 'width', value: width },
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
    });
    return Buffer.from(renderer.render().asPng());
  }
}
