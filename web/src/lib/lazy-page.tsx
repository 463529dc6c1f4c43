import { useEffect, useState, type ComponentType } from 'react';
import { useI18n } from './i18n';
import { Loading } from './ui';

export interface LazyPage {
  (): React.JSX.Element;
  /** starts loading the page's module (once); resolves when it is in */
  load(): Promise<void>;
}

/**
 * A page whose code loads on first visit, without Suspense. React holds a Suspense boundary's
 * content back until 300 ms after its fallback appeared (so that a loading state does not flash),
 * which showed a lazily loaded page about 250 ms after its code had arrived, on every first visit.
 * Here the page shows the loading state until its module is in and then renders at once; `load`
 * starts the download before the page renders (the route is known while the session is still being
 * checked). A module that fails to load (the network, a new deployment) offers to reload.
 */
export function lazyPage(factory: () => Promise<{ default: ComponentType }>): LazyPage {
  let Component: ComponentType | null = null;
  let pending: Promise<void> | null = null;
  const load = () =>
    (pending ??= factory().then(
      (m) => {
        Component = m.default;
      },
      (err: unknown) => {
        pending = null;
        throw err;
      },
    ));
  function Page() {
    const [failed, setFailed] = useState(false);
    const [, setLoaded] = useState(false);
    useEffect(() => {
      // also when the code arrived between this render and the effect: the render showed Loading
      let live = true;
      load().then(
        () => live && setLoaded(true),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, []);
    if (Component) return <Component />;
    if (failed) return <LoadFailed />;
    return <Loading />;
  }
  return Object.assign(Page, { load });
}

/** the page's code did not arrive: a reload fetches the app as it is now (a new deployment too) */
function LoadFailed() {
  const { t } = useI18n();
  return (
    <div className="state state-error" role="alert">
      <p>{t('common.pageLoadFailed')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </div>
  );
}
