import { namespaces } from '../lib/i18n-core';
import { appMessages } from '../lib/messages';
import { askMessages } from '../features/ask/messages';
import { catalogMessages } from '../features/admin-catalog/messages';
import { opmlMessages } from '../features/admin-catalog/opml-messages';
import { sourceMessages } from '../features/admin-catalog/source-messages';
import { webhookMessages } from '../features/admin-catalog/webhook-messages';
import { jobsMessages } from '../features/admin-jobs/messages';
import { tagsMessages } from '../features/admin-tags/messages';
import { usersMessages } from '../features/admin-users/messages';
import { worksAdminMessages } from '../features/admin-works/messages';
import { monMessages } from '../features/monitoring/i18n/messages';
import { accountMessages } from '../features/settings/account-messages';
import { settingsMessages } from '../features/settings/messages';

/**
 * Every translation namespace of the web app, in one place. Pages import their own namespace (so a
 * feature's strings stay in its lazily loaded chunk); this list is what the locale completeness
 * test checks, and that test fails for a `defineMessages` missing here.
 */
export const NAMESPACES = namespaces({
  app: appMessages,
  account: accountMessages,
  ask: askMessages,
  catalog: catalogMessages,
  jobs: jobsMessages,
  mon: monMessages,
  opml: opmlMessages,
  settings: settingsMessages,
  sources: sourceMessages,
  tags: tagsMessages,
  users: usersMessages,
  webhooks: webhookMessages,
  worksAdmin: worksAdminMessages,
});
