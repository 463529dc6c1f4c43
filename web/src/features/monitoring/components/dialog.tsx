import { useEffect, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { useMonT } from '../i18n/use-mon-t';

/** A modal on the native <dialog>: focus moves in and back, Escape closes, the page behind is inert. */
export function Dialog({
  title,
  onClose,
  children,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useMonT();
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
      className={`mon-dialog${wide ? ' mon-dialog-wide' : ''}`}
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="mon-dialog-head">
        <h2>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('mon.close')} onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      <div className="mon-dialog-body">{children}</div>
    </dialog>
  );
}
