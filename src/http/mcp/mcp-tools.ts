import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AssistantToolName } from '../../application/assistant/assistant-tools.js';

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** text of a tool's input: bounded, and no control characters (NUL would fail in PostgreSQL) */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !CONTROL.test(s), 'control characters are not allowed');
const articleId = z.uuid().describe('an article id (from search_articles or another tool)');
const topic = text(200).describe("a topic's id, slug or name (list_topics names them)");

const read: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const write: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * The tools of /mcp: name, description, input schema (validated by the SDK before a tool runs)
 * and hints. What each does is the assistant use case of the same name.
 */
export const MCP_TOOLS = {
  search_articles: {
    title: 'Search articles',
    description:
      'Search and list articles (newest first, or best match first with a query). Each result has the ' +
      "article's url (cite it), a reader_url in this service, its summary, tags and metrics, and " +
      'whether you have read or favorited it.',
    inputSchema: {
      query: text(200)
        .optional()
        .describe('words to search in title, summary, text and translation ("phrase", OR, -word)'),
      topic: topic.optional(),
      since: text(40)
        .optional()
        .describe('only articles published since this ISO 8601 date or date-time, e.g. 2025-01-31'),
      sort: text(100)
        .optional()
        .describe(
          'relevance (default with a query), scraped_at (default without), published_at, title, ' +
            'source, view_count, or a metric key such as citations',
        ),
      limit: z.number().int().min(1).max(50).optional().describe('results, 1-50 (default 10)'),
    },
    annotations: read,
  },
  get_article: {
    title: 'Get an article',
    description:
      'One article with its text (at most 20,000 characters), summary, translation, metrics and url. Does not mark it read.',
    inputSchema: { id: articleId },
    annotations: read,
  },
  list_topics: {
    title: 'List topics',
    description: 'The topics articles are collected under, with the url of their article list and Atom feed.',
    inputSchema: {},
    annotations: read,
  },
  get_weekly_report: {
    title: 'Get a weekly report',
    description:
      "A topic's weekly report: a Markdown summary whose [N] cites sources[N-1], each source with its url. " +
      'Without a week, the latest completed one.',
    inputSchema: {
      topic,
      week: text(10)
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
        .optional()
        .describe('any day of the week, YYYY-MM-DD'),
      language: z.enum(['en', 'zh-TW']).optional().describe('zh-TW: the translated title and summary'),
    },
    annotations: read,
  },
  similar_articles: {
    title: 'Similar articles',
    description: 'Up to five articles of the same topic nearest to this one in meaning, each with its url.',
    inputSchema: { id: articleId },
    annotations: read,
  },
  mark_read: {
    title: 'Mark read or unread',
    description: 'Mark an article read (or unread with read: false) for you. Needs a write token.',
    inputSchema: { id: articleId, read: z.boolean().optional().describe('false marks it unread') },
    annotations: write,
  },
  set_favorite: {
    title: 'Favorite or unfavorite',
    description: 'Add an article to your favorites (or remove it with favorite: false). Needs a write token.',
    inputSchema: { id: articleId, favorite: z.boolean().optional().describe('false removes it') },
    annotations: write,
  },
} satisfies Record<
  AssistantToolName,
  { title: string; description: string; inputSchema: z.ZodRawShape; annotations: ToolAnnotations }
>;
