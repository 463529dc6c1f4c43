import type { Article } from '../../../lib/api-types';

/** A search excerpt: plain-text segments from the api, matches in <mark> (never parsed as HTML). */
export function Snippet({ segments }: { segments: NonNullable<Article['snippet']> }) {
  return (
    <p className="summary snippet" data-testid="snippet">
      {segments.map((s, i) => (s.highlight ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </p>
  );
}
