import { OpmlService } from '../application/catalog/opml.service.js';
import { DrizzleCatalogTransactions } from '../infrastructure/db/repositories/catalog-transactions.js';
import { FeedsmithOpmlCodec } from '../infrastructure/feeds/opml-codec.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import { GuardOutboundPolicy } from '../infrastructure/http/outbound-policy.js';
import type { AreaWiring, WiringContext } from './context.js';

/** GET /admin/sources.opml and POST /admin/sources/opml (issue 18, deliverable 2). */
export const wireOpml = (ctx: WiringContext): AreaWiring<'opml'> => ({
  services: {
    opml: new OpmlService(
      new FeedsmithOpmlCodec(),
      new DrizzleCatalogTransactions(ctx.db),
      ctx.clock,
      // an OPML file's URLs are judged like item links (FETCH_ALLOWED_HOSTS), not trusted like a typed source
      new GuardOutboundPolicy(new OutboundGuard(ctx.config.fetch.allowedHosts)),
    ),
  },
});
