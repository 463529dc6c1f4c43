import { CheckCircle2, CircleDashed, XCircle } from 'lucide-react';
import type { ArticleStages } from '../model/panel-data';
import { Dialog } from '../../../lib/dialog';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

/** One article's pipeline as sequential stage cards. */
export function WorkflowDialog({ article, onClose }: { article: ArticleStages; onClose: () => void }) {
  const { t } = useT(monMessages);
  return (
    <Dialog title={t('mon.workflow.title', { url: article.url })} onClose={onClose}>
      <ol className="mon-stages" data-testid="workflow">
        {article.stages.map((s, i) => (
          <li key={`${s.name}-${i}`} className={`mon-stage is-${s.status}`}>
            <span className="mon-stage-icon" aria-hidden>
              {s.status === 'error' ? (
                <XCircle size={18} />
              ) : s.status === 'ok' ? (
                <CheckCircle2 size={18} />
              ) : (
                <CircleDashed size={18} />
              )}
            </span>
            <div>
              <strong>{s.name}</strong>
              <div className="mon-muted">
                {t(s.status === 'error' ? 'mon.workflow.failed' : 'mon.workflow.completed')} ·{' '}
                {s.durationMs.toFixed(1)} ms
              </div>
              {s.message && <p className="mon-stage-error">{s.message}</p>}
            </div>
          </li>
        ))}
        {!article.stages.length && <li className="state state-empty">{t('mon.workflow.empty')}</li>}
      </ol>
    </Dialog>
  );
}
