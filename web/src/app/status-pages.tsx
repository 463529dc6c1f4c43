import { Link } from 'react-router';
import { useI18n } from '../lib/i18n';

export function ForbiddenPage() {
  const { t } = useI18n();
  return (
    <section className="status-page" data-status="403">
      <h1>403</h1>
      <p>{t('common.forbidden')}</p>
      <Link to="/articles">{t('common.backHome')}</Link>
    </section>
  );
}

export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <section className="status-page" data-status="404">
      <h1>404</h1>
      <p>{t('common.notFound')}</p>
      <Link to="/articles">{t('common.backHome')}</Link>
    </section>
  );
}
