import { useI18n } from '../../../lib/i18n';
import { OpmlSection } from './opml-section';
import { ProvidersSection } from './providers-section';
import { SourcesSection } from './sources-section';
import { TopicsSection } from './topics-section';
import { WebhooksSection } from './webhooks-section';

export default function CatalogAdminPage() {
  const { t } = useI18n();
  return (
    <section>
      <h1>{t('admin.catalog.title')}</h1>
      <TopicsSection />
      <SourcesSection />
      <OpmlSection />
      <ProvidersSection />
      <WebhooksSection />
    </section>
  );
}
