import { OpmlService } from '../application/catalog/opml.service.js';
import { DrizzleCatalogTransactions } from '../infrastructure/db/repositories/catalog-transactions.js';
import { FeedsmithOpmlCodec } from '../infrastructure/feeds/opml-codec.js';
import type { WireArea } from './context.js';

/** GET /admin/sources.opml and POST /admin/sources/opml (issue 18, deliverable 2). */
export const wireOpml: WireArea = (ctx) => ({
  services: {
    opml: new OpmlService(new FeedsmithOpmlCodec(), new DrizzleCatalogTransactions(ctx.db), ctx.clock),
  },
});
