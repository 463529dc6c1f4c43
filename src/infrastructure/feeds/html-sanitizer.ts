import type sanitizeHtml from 'sanitize-html';
import type { HtmlSanitizer } from '../../application/articles/articles.ports.js';
import { boundNesting } from './html-nesting.js';

/**
 * The one gate for a feed's HTML before it reaches a page (the reader view's `content_html`):
 * an allow-list of reading markup (text, lists, headings, tables, code, quotes, images, links).
 * Scripts, styles, event handlers, frames, objects, embeds and forms never pass; links open in a
 * new tab without an opener or referrer; only http(s)/mailto links and http(s)/data:image images.
 */
const options = (defaults: string[]): sanitizeHtml.IOptions => ({
  allowedTags: [
    ...defaults.filter((t) => !['nav', 'main', 'header', 'footer', 'aside'].includes(t)),
    'img',
    'picture',
    'del',
    'ins',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start'],
    code: ['class'],
    time: ['datetime'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // text inside these is dropped with the tag
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
  ],
});

const isDataImage = (src: string) => /^data:image\/(png|jpe?g|gif|webp|avif);base64,/i.test(src.trim());

function absolute(url: string | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url.trim(), base).toString();
  } catch {
    return undefined;
  }
}

/**
 * sanitize-html (with htmlparser2 and postcss, ~3 MB of heap) is loaded on the first reader view,
 * not at start (docs/decisions/0003-idle-memory.md).
 */
export class SanitizeHtmlSanitizer implements HtmlSanitizer {
  private loaded: Promise<{ run: typeof sanitizeHtml; base: sanitizeHtml.IOptions }> | null = null;

  async sanitize(html: string, baseUrl: string): Promise<string> {
    this.loaded ??= import('sanitize-html').then(({ default: run }) => ({
      run,
      base: options(run.defaults.allowedTags),
    }));
    const { run, base } = await this.loaded;
    // the parser's stack lookups are quadratic in the nesting depth: bounded first (html-nesting.ts)
    return run(boundNesting(html), {
      ...base,
      transformTags: {
        a: (tagName, attribs) => {
          const href = absolute(attribs.href, baseUrl);
          return {
            tagName,
            attribs: {
              ...(href ? { href } : {}),
              ...(attribs.title ? { title: attribs.title } : {}),
              rel: 'noopener noreferrer',
              target: '_blank',
            },
          };
        },
        img: (tagName, attribs) => {
          const src = attribs.src?.trim() ?? '';
          const { src: _src, ...rest } = attribs;
          const kept = src.toLowerCase().startsWith('data:')
            ? isDataImage(src)
              ? src
              : undefined
            : absolute(src, baseUrl);
          return { tagName, attribs: { ...rest, ...(kept ? { src: kept } : {}), loading: 'lazy' } };
        },
      },
      // an image left without a usable source is dropped
      exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
    });
  }
}
