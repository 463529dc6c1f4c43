import { useI18n } from '../../../lib/i18n';

/** DOI and arXiv badges, linking to the resolver and the abstract page. */
export function IdentifierBadges({ doi, arxivId }: { doi: string | null; arxivId: string | null }) {
  const { t } = useI18n();
  if (!doi && !arxivId) return null;
  return (
    <ul className="id-badges" aria-label={t('articles.identifiers')}>
      {doi && (
        <li>
          <a
            className="id-badge doi"
            href={`https://doi.org/${doi.split('/').map(encodeURIComponent).join('/')}`}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="doi-link"
          >
            <span className="id-kind">{t('articles.doi')}</span> {doi}
          </a>
        </li>
      )}
      {arxivId && (
        <li>
          <a
            className="id-badge arxiv"
            href={`https://arxiv.org/abs/${arxivId.split('/').map(encodeURIComponent).join('/')}`}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="arxiv-link"
          >
            <span className="id-kind">{t('articles.arxiv')}</span> {arxivId}
          </a>
        </li>
      )}
    </ul>
  );
}
