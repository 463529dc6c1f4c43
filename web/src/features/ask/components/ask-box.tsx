import { useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LogIn, MessageCircleQuestion } from 'lucide-react';
import { useI18n, useT } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { askMessages } from '../messages';
import { askHref } from '../model/ask-href';
import './ask-box.css';

/** the api's limit, in characters (code points, as the server counts them) */
export const QUESTION_MAX = 500;
/** the counter shows from here on */
const COUNTER_FROM = 400;

/**
 * The question field of the article list and of the answer page. It asks within `topic` when one is
 * given; asking opens the answer page (`/ask?q=&topic=`), which streams the answer. Guests see a
 * sign-in hint instead: asking needs an account.
 */
export function AskBox({ topic, initial = '' }: { topic?: { id: string; name: string }; initial?: string }) {
  const { t } = useT(askMessages);
  const app = useI18n();
  const { user } = useSession();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [question, setQuestion] = useState(initial);
  const ids = useId();

  if (!user)
    return (
      <p className="sign-in-hint ask-sign-in" data-testid="ask-sign-in">
        <MessageCircleQuestion size={16} aria-hidden="true" /> {t('signIn')}{' '}
        <Link to={`/login?next=${encodeURIComponent(pathname + search)}`}>
          <LogIn size={14} aria-hidden="true" /> {app.t('nav.login')}
        </Link>
      </p>
    );

  const trimmed = question.trim();
  const length = [...trimmed].length;
  const over = length - QUESTION_MAX;
  const canAsk = length > 0 && over <= 0;
  const submit = () => {
    if (canAsk) void navigate(askHref(trimmed, topic?.id));
  };

  return (
    <form
      className="ask-box"
      data-testid="ask-box"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${ids}-q`} className="ask-label">
        <MessageCircleQuestion size={16} aria-hidden="true" />
        {topic?.name ? t('boxLabelTopic', { topic: topic.name }) : t('boxLabel')}
      </label>
      <p className="ask-hint" id={`${ids}-hint`}>
        {t('boxHint')}
      </p>
      <div className="ask-row">
        <textarea
          id={`${ids}-q`}
          name="question"
          rows={2}
          value={question}
          placeholder={t('placeholder')}
          aria-describedby={`${ids}-hint ${ids}-count`}
          aria-invalid={over > 0 || undefined}
          data-testid="ask-question"
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            // Enter asks, Shift+Enter is a line break (the server reads the question as one line)
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <button type="submit" disabled={!canAsk} data-testid="ask-submit">
          {t('submit')}
        </button>
      </div>
      <p
        id={`${ids}-count`}
        className={over > 0 ? 'ask-count over' : 'ask-count'}
        aria-live="polite"
        data-testid="ask-count"
      >
        {length >= COUNTER_FROM &&
          (over > 0 ? t('tooLong', { count: over }) : t('charsLeft', { count: QUESTION_MAX - length }))}
      </p>
    </form>
  );
}
