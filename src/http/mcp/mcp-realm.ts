/** The realm of /mcp's WWW-Authenticate challenge and the MCP server's name. */
export const REALM = 'article-intel';
