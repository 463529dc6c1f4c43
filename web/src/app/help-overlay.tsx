import { Fragment, useEffect, useRef } from 'react';
import { X } from 'lucide-react';
import { useI18n } from '../lib/i18n';
import type { MessageKey } from '../lib/messages';

const SHORTCUTS: { keys: string[][]; label: MessageKey }[] = [
  { keys: [['j']], label: 'keys.next' },
  { keys: [['k']], label: 'keys.previous' },
  { keys: [['o'], ['Enter']], label: 'keys.open' },
  { keys: [['f']], label: 'keys.favorite' },
  { keys: [['m']], label: 'keys.read' },
  { keys: [['/']], label: 'keys.search' },
  { keys: [['g', 'a']], label: 'keys.all' },
  { keys: [['?']], label: 'keys.help' },
];

/** The `?` overlay: a modal <dialog> listing the shortcuts; Escape or `?` closes it. */
export function HelpOverlay({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="help-overlay"
      aria-labelledby="help-title"
      data-testid="help-overlay"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === '?') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header>
        <h2 id="help-title">{t('keys.title')}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('keys.close')}
          onClick={onClose}
          autoFocus
        >
          <X size={18} aria-hidden="true" />
        </button>
      </header>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.label}>
            <dt>
              {s.keys.map((combo, i) => (
                <Fragment key={i}>
                  {i > 0 && <span className="key-sep"> {t('keys.or')} </span>}
                  {combo.map((k, j) => (
                    <Fragment key={k}>
                      {j > 0 && <span className="key-sep"> {t('keys.then')} </span>}
                      <kbd>{k}</kbd>
                    </Fragment>
                  ))}
                </Fragment>
              ))}
            </dt>
            <dd>{t(s.label)}</dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}
