import type { ReactNode } from 'react';

/**
 * A small markdown renderer for report summaries: headings, paragraphs, lists, bold, italics,
 * http(s) links, and `[N]` citations as links to the N-th source. It builds React elements, never
 * HTML strings, so model output cannot inject markup.
 */
export function Markdown({
  text,
  sourceCount,
  quotes,
}: {
  text: string;
  sourceCount: number;
  /** the passage of source N that supports its citation, shown on hover and focus of [N] */
  quotes?: Map<number, string>;
}) {
  const cite = { sourceCount, quotes };
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  return (
    <div className="markdown">
      {blocks.map((block, i) => {
        const lines = block.split('\n').filter((l) => l.trim() !== '');
        if (lines.length === 0) return null;
        const heading = /^(#{1,4})\s+(.*)$/.exec(lines[0]!);
        if (heading && lines.length === 1) {
          const level = Math.min(heading[1]!.length + 2, 6);
          const Tag = `h${level}` as 'h3';
          return <Tag key={i}>{inline(heading[2]!, cite)}</Tag>;
        }
        if (lines.every((l) => /^\s*([-*]|\d+\.)\s+/.test(l))) {
          const ordered = /^\s*\d+\./.test(lines[0]!);
          const items = lines.map((l, j) => (
            <li key={j}>{inline(l.replace(/^\s*([-*]|\d+\.)\s+/, ''), cite)}</li>
          ));
          return ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
        }
        return <p key={i}>{inline(lines.join(' '), cite)}</p>;
      })}
    </div>
  );
}

const TOKEN = /(\[(\d+)\](?!\()|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)|\*\*([^*]+)\*\*|\*([^*]+)\*)/g;

function inline(
  text: string,
  { sourceCount, quotes }: { sourceCount: number; quotes?: Map<number, string> },
): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = `${m.index}`;
    if (m[2]) {
      const n = Number(m[2]);
      out.push(
        n >= 1 && n <= sourceCount ? (
          <a
            key={key}
            href={`#source-${n}`}
            className="citation"
            data-citation={n}
            data-quote={quotes?.get(n)}
            aria-label={quotes?.get(n) ? `[${n}]: “${quotes.get(n)}”` : undefined}
          >
            [{n}]
          </a>
        ) : (
          `[${n}]`
        ),
      );
    } else if (m[3] && m[4]) {
      out.push(
        <a key={key} href={m[4]} target="_blank" rel="noopener noreferrer">
          {m[3]}
        </a>,
      );
    } else if (m[5]) out.push(<strong key={key}>{m[5]}</strong>);
    else if (m[6]) out.push(<em key={key}>{m[6]}</em>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
