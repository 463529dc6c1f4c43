import { Fragment } from 'react';
import { Dialog } from '../lib/dialog';
import { useI18n } from '../lib/i18n';
import type { MessageName } from '../lib/messages';

const SHORTCUTS: { keys: string[][]; label: MessageName }[] = [
  { keys: [['j']], label: 'keys.next' },
  { keys: [['k']], label: 'keys.previous' },
  { keys: [['o'], ['Enter']], label: 'keys.open' },
  { keys: [['f']], label: 'keys.favorite' },
  { keys: [['m']], label: 'keys.read' },
  { keys: [['o'], ['v']], label: 'keys.original' },
  { keys: [['u'], ['Esc']], label: 'keys.back' },
  { keys: [['/']], label: 'keys.search' },
  { keys: [['g', 'a']], label: 'keys.all' },
  { keys: [['?']], label: 'keys.help' },
];

/** The `?` overlay: the shortcuts in the app's dialog; Escape or `?` closes it. */
export function HelpOverlay({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  return (
    <Dialog
      title={t('keys.title')}
      onClose={onClose}
      size="narrow"
      className="help-overlay"
      testId="help-overlay"
      onKeyDown={(e) => {
        if (e.key === '?') {
          e.preventDefault();
          onClose();
        }
      }}
    >
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
    </Dialog>
  );
}
