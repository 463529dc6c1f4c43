/**
 * The one place feed HTML enters the page. `content_html` is sanitised by the api (allow-listed
 * tags and attributes, http(s)/mailto links with rel="noopener noreferrer", no scripts, handlers,
 * frames or forms); nothing else in the app inserts HTML.
 */
export function ArticleContent({ html, lang }: { html: string; lang?: string | null }) {
  return (
    <div
      className="article-content"
      data-testid="article-content"
      lang={lang ?? undefined}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
